import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy in front of the development chain that can play an RPC node in trouble: `down()` makes
 * every request fail (connection reset), `refuse(methods)` fails only those methods (say, broadcasts).
 */
export async function startRpcProxy(target: string) {
  let down = false;
  let refused = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      let methods: string[] = [];
      try {
        const parsed = JSON.parse(body);
        methods = (Array.isArray(parsed) ? parsed : [parsed]).map((m: { method: string }) => m.method);
      } catch {
        /* forwarded as is */
      }
      if (down || methods.some((m) => refused.has(m))) {
        req.socket.destroy();
        return;
      }
      try {
        const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(await r.text());
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    down: () => {
      down = true;
    },
    up: () => {
      down = false;
      refused = new Set();
    },
    refuse: (...methods: string[]) => {
      refused = new Set(methods);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
