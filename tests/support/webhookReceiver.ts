import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

// A real HTTPS webhook receiver on loopback (certificate from scripts/test-tls.mjs, which the service trusts
// through WEBHOOK_CA_FILE). It keeps every request with its raw body; `respond` decides each answer (a status,
// 'hang' to never answer: a tarpit, until the sender gives up and closes the connection; or a status sent
// only after a delay: a slow receiver). Each request
// records when it arrived and when its exchange ended, so a test can tell how many were open at once.

export interface Received {
  headers: Record<string, string>;
  raw: string;
  body: any;
  at: number;
  /** When the exchange ended (answered, or closed by the sender); null while it is open. */
  closedAt: number | null;
}

export interface Receiver {
  url: string;
  received: Received[];
  respond: (r: Received, nth: number) => number | 'hang' | { status: number; afterMs: number };
  /** Requests open now (received, not answered or closed). */
  open(): number;
  /** Resolves once `pred` holds for the received list (polls every 25 ms). */
  until(pred: (all: Received[]) => boolean, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

const tls = path.resolve(__dirname, '../../.data/test-tls');

/** The most requests open at once across `receivers` (from each request's arrival and end). */
export function maxOpenAtOnce(...receivers: Receiver[]): number {
  const edges = receivers.flatMap((x) => x.received.flatMap((r) => [[r.at, 1], ...(r.closedAt === null ? [] : [[r.closedAt, -1]])]));
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // an end before an arrival at the same millisecond
  let open = 0;
  let max = 0;
  for (const [, d] of edges) max = Math.max(max, (open += d));
  return max;
}

export async function startReceiver(pathname = '/hooks'): Promise<Receiver> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const rec: Receiver = {
    url: '',
    received: [],
    respond: () => 200,
    open: () => rec.received.filter((r) => r.closedAt === null).length,
    until: async (pred, timeoutMs = 20000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pred(rec.received)) {
        if (Date.now() > deadline)
          throw new Error(
            `receiver: condition not met in ${timeoutMs} ms; got ${rec.received.map((r) => `${r.body?.type}#${r.body?.data?.payment?.version}`).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
      return rec.received;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = https.createServer(
    { key: fs.readFileSync(path.join(tls, 'key.pem')), cert: fs.readFileSync(path.join(tls, 'cert.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(raw);
        } catch {
          /* kept raw */
        }
        const r: Received = { headers: req.headers as Record<string, string>, raw, body, at: Date.now(), closedAt: null };
        res.on('close', () => (r.closedAt = Date.now()));
        rec.received.push(r);
        const answer = rec.respond(r, rec.received.length);
        if (answer === 'hang') {
          hanging.add(res);
          return;
        }
        if (typeof answer === 'object') {
          hanging.add(res);
          const timer = setTimeout(() => res.writeHead(answer.status, { 'content-type': 'text/plain' }).end('ok'), answer.afterMs);
          res.on('close', () => clearTimeout(timer));
          return;
        }
        res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      });
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rec.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${pathname}`;
  return rec;
}
