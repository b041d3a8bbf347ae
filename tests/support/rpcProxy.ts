import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RpcCall = { id?: unknown; method: string; params?: any[] };
type RpcAnswer = { id?: unknown; result?: unknown; error?: unknown };
/** Says whether an answer of `method` to `params` is hidden (answered as if the node did not know it). */
export type Hider = (method: string, result: any, params: unknown[]) => boolean;

/**
 * A JSON-RPC proxy in front of the development chain that can play an RPC node in trouble: `down()` makes
 * every request fail (connection reset), `refuse(methods)` fails only those methods (say, broadcasts),
 * `hide(hider)` answers null where the node knows the answer (a receipt index that lags, a load-balanced
 * provider whose backends disagree), `delay(ms)` adds latency to every answer, `watch(f)` shows `f` every call,
 * `calls(method)` says how many calls of a method it was sent (in batches too), `holdAnswer(pick)` keeps one answer
 * back until released (a slow answer in a race), `holdRequest(pick)` keeps one request from the node until released
 * (the node judges it later, on the chain as it is then).
 */
export async function startRpcProxy(target: string) {
  let down = false;
  let refused = new Set<string>();
  let hider: Hider | null = null;
  let delayMs = 0;
  let watcher: ((call: RpcCall) => void) | null = null;
  type Hold = { pick: (call: RpcCall) => boolean; arrived: () => void; released: Promise<void> };
  let holding: Hold | null = null;
  let requestHolds: Hold[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      let calls: RpcCall[] = [];
      let batch = false;
      try {
        const parsed = JSON.parse(body);
        batch = Array.isArray(parsed);
        calls = batch ? parsed : [parsed];
      } catch {
        /* forwarded as is */
      }
      for (const c of calls) watcher?.(c);
      for (const c of calls) counts.set(c.method, (counts.get(c.method) ?? 0) + 1);
      if (down || calls.some((c) => refused.has(c.method))) {
        req.socket.destroy();
        return;
      }
      const heldRequest = requestHolds.find((h) => calls.some(h.pick));
      if (heldRequest) {
        requestHolds = requestHolds.filter((h) => h !== heldRequest);
        heldRequest.arrived();
        await heldRequest.released;
      }
      try {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        const r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        let text = await r.text();
        const hide = hider;
        if (hide && calls.length && r.ok) {
          const parsed = JSON.parse(text);
          const answers: RpcAnswer[] = batch ? parsed : [parsed];
          const byId = new Map(calls.map((c) => [JSON.stringify(c.id), c]));
          for (const a of answers) {
            const call = byId.get(JSON.stringify(a.id));
            if (call && a.result != null && hide(call.method, a.result, call.params ?? [])) a.result = null;
          }
          text = JSON.stringify(batch ? answers : answers[0]);
        }
        const held = holding;
        if (held && calls.some(held.pick)) {
          holding = null;
          held.arrived();
          await held.released;
        }
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(text);
      } catch {
        req.socket.destroy();
      }
    });
  });
  const newHold = (pick: (call: RpcCall) => boolean) => {
    let arrived!: () => void;
    let release!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    const hold: Hold = { pick, arrived, released: new Promise<void>((r) => (release = r)) };
    return { hold, handle: { arrived: arrival, release } };
  };
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
    /** Hides the answers `h` picks until called again (null: hides nothing). */
    hide: (h: Hider | null) => {
      hider = h;
    },
    delay: (ms: number) => {
      delayMs = ms;
    },
    /** Calls `w` with every JSON-RPC call that reaches the proxy until called again (null: nobody). */
    watch: (w: ((call: RpcCall) => void) | null) => {
      watcher = w;
    },
    calls: (method: string) => counts.get(method) ?? 0,
    /**
     * Holds the node's answer to the next call `pick` chooses (and its batch's) until `release()`: the node judged it
     * then, its caller hears it later. `arrived` resolves once the answer is held.
     */
    holdAnswer: (pick: (call: RpcCall) => boolean) => {
      const h = newHold(pick);
      holding = h.hold;
      return h.handle;
    },
    /** Keeps the next request `pick` chooses (and its batch) from the node until `release()`; several may be held at once. */
    holdRequest: (pick: (call: RpcCall) => boolean) => {
      const h = newHold(pick);
      requestHolds.push(h.hold);
      return h.handle;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
