// The front of the Prism step: one HTTP proxy that sends each request to the Prism proxy of the version it asks
// for (PAY-Version, or its synonyms WCP-Version and Api-Version), so that a response is checked against the
// document of the version that produced it. A request naming no version gets the account's default, which is
// never a preview, so it goes to the first (stable) version's Prism.
import http from 'node:http';

const VERSION_HEADERS = ['pay-version', 'wcp-version', 'api-version'];
/** Hop-by-hop headers: about one connection, never forwarded to the next. */
const HOP = new Set(['connection', 'keep-alive']);
const endToEnd = (headers) => Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP.has(k.toLowerCase())));

/** The version a request asks for: the first version header's value that is one of `versions`, else `versions[0]`. */
export function versionOf(headers, versions) {
  for (const h of VERSION_HEADERS) {
    const v = headers[h];
    if (typeof v === 'string' && versions.includes(v.trim())) return v.trim();
  }
  return versions[0];
}

/** Starts the router on `port`; `upstreams` maps a version to its Prism's URL. Resolves to the server. */
export function startVersionRouter(port, upstreams) {
  const versions = Object.keys(upstreams);
  const counts = Object.fromEntries(versions.map((v) => [v, 0]));
  const server = http.createServer((req, res) => {
    const v = versionOf(req.headers, versions);
    counts[v] += 1;
    const target = new URL(req.url, upstreams[v]);
    // A connection of its own per request (agent: false): a kept-alive one that Prism closes while idle could be
    // reused at that very moment.
    const up = http.request(target, { method: req.method, headers: { ...endToEnd(req.headers), host: target.host }, agent: false }, (r) => {
      res.writeHead(r.statusCode, endToEnd(r.headers));
      r.pipe(res);
    });
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`version router: ${v} upstream failed: ${e.message}`);
    });
    res.on('close', () => {
      if (!res.writableFinished) up.destroy(); // the client went away (e.g. an aborted long-poll)
    });
    req.pipe(up);
  });
  // Idle client connections stay open longer than any client keeps one (undici: 4 s), so that the client, never
  // the router, closes them: a client reusing a connection the router was closing saw "other side closed" (CI,
  // paymentsEvents' 50 concurrent refunds). cleanup closes them all when the suite has ended.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, counts })));
}
