// Baselines for bench/longpoll.mjs: a server holding long-polls and nothing else (no auth, no validation, no
// database, no logging), as bare Koa, as a bare node:http handler (BASELINE_SERVER=node), or (BASELINE_SERVER=raw)
// as the floor: node:http holds the requests, but the release writes one prebuilt response (status line,
// headers, body) straight to each socket, with none of Node's per-response work. Not a usable server (its
// responses never finish in Node's eyes): it shows what answering N sockets costs this machine. GET /wait holds
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

/** node:http answers each held response; raw writes one prebuilt response straight to each socket. */
const answerAll = {
  node: (all, body) => {
    for (const res of all) json(res, body);
  },
  raw: (all, body) => {
    const head = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nDate: ${new Date().toUTCString()}\r\n`;
    const keep = Buffer.from(`${head}Connection: keep-alive\r\n\r\n${body}`);
    const closing = Buffer.from(`${head}Connection: close\r\n\r\n${body}`);
    for (const res of all) {
      if (res.req.headers.connection === 'close') res.socket.end(closing);
      else res.socket.write(keep);
    }
  },
}[process.env.BASELINE_SERVER];

let handler;
if (answerAll) {
  handler = async (req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/wait') held.push(res);
    else if (path === '/release' && req.method === 'POST') {
      const body = await readBody(req);
      const all = held.splice(0);
      answerAll(all, body);
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
