// Baselines for bench/longpoll.mjs: a server holding long-polls and nothing else (no auth, no validation, no
// database, no logging), as bare Koa or (BASELINE_SERVER=node) as a bare node:http handler. GET /wait holds
// its request; POST /release answers every held request at once with the JSON body it was given (the bench
// gives it paygate's own answer, so the bytes per answer match) and answers with how many it released;
// GET /waiting counts them; anything else answers 200 (startChild's readiness check).
import http from 'node:http';
import Koa from 'koa';

const held = [];
const readBody = async (req) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return raw;
};
const json = (res, body) => res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);

let handler;
if (process.env.BASELINE_SERVER === 'node') {
  handler = async (req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/wait') held.push((body) => json(res, body));
    else if (path === '/release' && req.method === 'POST') {
      const body = await readBody(req);
      const all = held.splice(0);
      for (const answer of all) answer(body);
      json(res, JSON.stringify({ released: all.length }));
    } else if (path === '/waiting') json(res, JSON.stringify({ waiting: held.length }));
    else json(res, '{"ok":true}');
  };
} else {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.path === '/wait') {
      const body = await new Promise((resolve) => held.push(resolve));
      ctx.type = 'application/json';
      ctx.body = body;
    } else if (ctx.path === '/release' && ctx.method === 'POST') {
      const body = await readBody(ctx.req);
      const all = held.splice(0);
      for (const resolve of all) resolve(body);
      ctx.body = { released: all.length };
    } else if (ctx.path === '/waiting') {
      ctx.body = { waiting: held.length };
    } else ctx.body = { ok: true };
  });
  handler = app.callback();
}
const server = http.createServer(handler);
server.keepAliveTimeout = 65_000; // as the service's (src/server.ts): keep-alive rounds keep their connections
server.listen(Number(process.env.PORT), '127.0.0.1');
