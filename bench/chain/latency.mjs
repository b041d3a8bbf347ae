// Part 1 of the on-chain benchmark: latency to `succeeded` with one-second blocks, against a plain transfer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatePrivateKey } from 'viem/accounts';
import { freePort } from '../lib.mjs';
import { LAT_CONCURRENCY, LAT_N, USDC, devnet } from './config.mjs';
import { fundedKey, localSender, newBuyers, pool, sleep, transferData, waitReceipt } from './chainOps.mjs';
import { startService } from './service.mjs';

/** Part 1: latency to `succeeded` with one-second blocks. */
export async function latency(pg) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-anvil-'));
  const chain = await devnet.startDevnetChain({ dir, port: await freePort(), blockTimeS: 1 });
  let svc;
  try {
    // Baseline: transfer signed here, sent, receipt polled every 10 ms; the same concurrency as the payments.
    const key = await fundedKey(chain.rpcUrl);
    const s = await localSender(chain.rpcUrl, key);
    const base = [];
    await pool(LAT_N, LAT_CONCURRENCY, async () => {
      await sleep(Math.random() * 1000); // a random phase against the block clock, as for the payments
      const t0 = performance.now();
      const hash = await s.send(USDC, transferData());
      const r = await waitReceipt(chain.rpcUrl, hash);
      base.push(performance.now() - t0);
      if (r.status !== '0x1') throw new Error('baseline transfer reverted');
    });

    svc = await startService(pg, 'paygate_bench_latency', chain.rpcUrl, generatePrivateKey(), { CHAIN_POLL_INTERVAL_MS: '100' });
    const buyers = await newBuyers(chain.rpcUrl, LAT_N);
    const prepared = [];
    for (const [i, b] of buyers.entries()) prepared.push(await svc.prepare(b, `lat${i}`));
    const ours = [];
    const confirmMs = [];
    const confirmedAt = new Map();
    const answeredAt = new Map();
    await pool(LAT_N, LAT_CONCURRENCY, async (i) => {
      const p = prepared[i];
      await sleep(Math.random() * 1000);
      const c0 = performance.now();
      const c = await svc.confirm(p);
      const t0 = performance.now();
      confirmMs.push(t0 - c0);
      if (c.status !== 'processing' && c.status !== 'succeeded') throw new Error(`confirm answered ${c.status}`);
      for (let status = c.status; status !== 'succeeded';) {
        const r = await svc.gateway('GET', `/v1/gateway/payment/${p.paymentId}/status?maxPollMs=10000`);
        status = r.status;
        if (r.isFinal && status !== 'succeeded') throw new Error(`payment ${p.paymentId} ended ${status}`);
        if (performance.now() - t0 > 60_000) throw new Error(`payment ${p.paymentId} not succeeded after 60 s`);
      }
      ours.push(performance.now() - t0);
      answeredAt.set(p.paymentId, Date.now());
      confirmedAt.set(p.paymentId, Date.now() - (performance.now() - t0));
    });
    // Where the time went, from the collect transactions' timestamps.
    const stages = {
      'confirm -> collect signed (submit job)': [],
      'collect signed -> broadcast': [],
      'broadcast -> final (block + monitor)': [],
      'final -> long-poll answered': [],
    };
    const ms = (d) => new Date(d).getTime();
    for (const t of await svc.db('chain_transactions').where({ purpose: 'collect' }).whereNot('status', 'dropped')) {
      if (!answeredAt.has(t.payment_id)) continue;
      const v = Object.values(stages);
      v[0].push(ms(t.signed_at) - confirmedAt.get(t.payment_id));
      v[1].push(ms(t.broadcast_at) - ms(t.signed_at));
      v[2].push(ms(t.finished_at) - ms(t.broadcast_at));
      v[3].push(answeredAt.get(t.payment_id) - ms(t.finished_at));
    }
    return { base, ours, confirmMs, stages };
  } finally {
    if (svc) await svc.stop();
    await chain.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
