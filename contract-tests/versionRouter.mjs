// The front of the Prism step: one HTTP proxy that sends each request to the Prism proxy of the version it asks
// for (PAY-Version, or its synonyms WCP-Version and Api-Version), so that a response is checked against the
// document of the version that produced it. A request naming no version gets the account's default, which is
// never a preview, so it goes to the first (stable) version's Prism.
import http from 'node:http';

const VERSION_HEADERS = ['pay-version', 'wcp-version', 'api-version'];

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
    const up = http.request(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (r) => {
      res.writeHead(r.statusCode, r.headers);
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
  server.keepAliveTimeout = 1000;
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, counts })));
}
