// Parts 2 and 3 of the on-chain benchmark: settled payments per second on one relayer key, against plain
// transfers from one key, checked for nonce gaps and duplicate submissions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../lib.mjs';
import { CONCURRENCY, N, POLL_MS, PROFILE, USDC, devnet } from './config.mjs';
import { fundedKey, localSender, meanGas, newBuyers, pool, rpc, sleep, transferData } from './chainOps.mjs';
import { cpuByKind, rpcProxy, sampleSessions } from './profile.mjs';
import { startService } from './service.mjs';

/**
 * The baseline of parts 2, 3 and 5: N ERC-20 transfers from one key, nonces allocated here, CONCURRENCY sends in
 * flight, until the chain has them all; transfers/s, how many succeeded, their hashes and the sender.
 */
export async function transferBaseline(rpcUrl) {
  const key = await fundedKey(rpcUrl);
  const s = await localSender(rpcUrl, key);
  const start = await s.pub.getTransactionCount({ address: key.address });
  const hashes = [];
  const b0 = performance.now();
  await pool(N, CONCURRENCY, async () => hashes.push(await s.send(USDC, transferData())));
  // (With a deadline: a transfer the chain dropped would otherwise leave this wait, and the bench, hanging.)
  const baseDeadline = Date.now() + 180_000;
  for (let mined; (mined = (await s.pub.getTransactionCount({ address: key.address })) - start) < N; await sleep(5))
    if (Date.now() > baseDeadline) throw new Error(`baseline: the chain mined ${mined} of ${N} transfers in 180 s`);
  const baseRate = N / ((performance.now() - b0) / 1000);
  const baseOk = (await Promise.all(hashes.map((h) => rpc(rpcUrl, 'eth_getTransactionReceipt', [h])))).filter(
    (r) => r?.status === '0x1',
  ).length;
  return { s, hashes, baseRate, baseOk };
}

/** Part 2 (and 3, with `symbol` USDT: Permit2): settled payments per second on one relayer key, automine. */
export async function throughput(pg, symbol = 'USDC') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-anvil-'));
  const chain = await devnet.startDevnetChain({ dir, port: await freePort() });
  let svc;
  let proxy = null;
  try {
    const { s, hashes, baseRate, baseOk } = await transferBaseline(chain.rpcUrl);

    const relayerKey = generatePrivateKey();
    const relayer = privateKeyToAccount(relayerKey).address;
    proxy = PROFILE ? await rpcProxy(chain.rpcUrl) : null;
    const profDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-cpuprof-')) : null;
    svc = await startService(
      pg,
      `paygate_bench_throughput_${symbol.toLowerCase()}`,
      proxy?.url ?? chain.rpcUrl,
      relayerKey,
      { CHAIN_POLL_INTERVAL_MS: POLL_MS },
      PROFILE ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`], stdout: fs.openSync(path.join(profDir, 'service.log'), 'w') } : {},
      symbol,
    );
    const buyers = await newBuyers(chain.rpcUrl, N, symbol);
    const prepared = [];
    await pool(N, 10, async (i) => prepared.push(await svc.prepare(buyers[i], `tp${i}`)));
    const ids = prepared.map((p) => p.paymentId);
    const nonceBefore = await s.pub.getTransactionCount({ address: relayer });
    const xacts = async () =>
      Number(
        (await svc.db.raw('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()')).rows[0].n,
      );
    const xactsBefore = await xacts();
    proxy?.reset();
    if (PROFILE) {
      await svc.db.raw('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await svc.db.raw('SELECT pg_stat_statements_reset()');
    }
    const stopSampling = PROFILE ? sampleSessions(svc.db, svc.dbName) : null;

    const confirmedAt = new Map();
    const cpu0 = cpuByKind();
    const t0 = performance.now();
    const wall0 = Date.now();
    const mono0 = process.hrtime.bigint() / 1000n; // V8 profiles count CLOCK_MONOTONIC microseconds too
    const confirming = pool(N, CONCURRENCY, async (i) => {
      const c = await svc.confirm(prepared[i]);
      if (c.status !== 'processing' && c.status !== 'succeeded') throw new Error(`confirm answered ${c.status}`);
      confirmedAt.set(prepared[i].paymentId, Date.now());
    });
    let confirmsDone = null;
    confirming.then(() => {
      confirmsDone = performance.now();
    });
    let succeededAt = null;
    let settled = 0;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [{ ok, done }] = (
        await svc.db.raw(
          `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS ok, count(*) FILTER (WHERE settled_at IS NOT NULL)::int AS done FROM payments WHERE id = ANY(?)`,
          [ids],
        )
      ).rows;
      settled = done;
      if (ok === N && succeededAt === null) succeededAt = performance.now();
      if (done === N || Date.now() > deadline) break;
      await sleep(20);
    }
    const t1 = performance.now();
    const cpu1 = cpuByKind();
    const cpu = Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, v - (cpu0[k] || 0)]));
    const mono1 = process.hrtime.bigint() / 1000n;
    await confirming;
    const rate = settled / ((t1 - t0) / 1000);
    const xactsDuring = (await xacts()) - xactsBefore;
    const statements = PROFILE
      ? (
          await svc.db.raw(
            `SELECT calls::int, total_exec_time AS ms, regexp_replace(query, '\\s+', ' ', 'g') AS query FROM pg_stat_statements
       WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC`,
          )
        ).rows
      : null;
    const profile = PROFILE
      ? { rpc: proxy.report(), db: await stopSampling(), statements, durationMs: t1 - t0, profDir, window: [mono0, mono1] }
      : null;

    // Every payment shows its settlement through the API.
    let shown = 0;
    await pool(N, 20, async (i) => {
      if ((await svc.merchant('GET', `/v1/payments/${ids[i]}`)).settlement) shown++;
    });

    // Nonces and duplicates: the database's record against the chain's count.
    const txs = await svc.db('chain_transactions').where({ sender: relayer }).orderBy('nonce');
    const live = txs.filter((t) => t.status !== 'dropped');
    const nonces = new Set(live.map((t) => Number(t.nonce)));
    const top = Math.max(...nonces);
    let gaps = 0;
    for (let n = nonceBefore; n <= top; n++) if (!nonces.has(n)) gaps++;
    const nonceAfter = await s.pub.getTransactionCount({ address: relayer });
    const perPayment = new Map();
    for (const t of live.filter((x) => x.purpose === 'collect')) perPayment.set(t.payment_id, (perPayment.get(t.payment_id) || 0) + 1);
    const duplicates = [...perPayment.values()].filter((c) => c > 1).length;
    const dupSettles = (
      await svc
        .db('chain_transactions')
        .where({ purpose: 'settle' })
        .whereNot('status', 'dropped')
        .groupBy('payment_id')
        .havingRaw('count(*) > 1')
        .select('payment_id')
    ).length;

    // Where the time went: per payment, stage durations from the stored timestamps (ms).
    const stages = {
      'confirm -> collect signed (submit job)': [],
      'collect signed -> broadcast': [],
      'collect broadcast -> final (monitor)': [],
      'collect final -> settle signed (settle job)': [],
      'settle signed -> broadcast': [],
      'settle broadcast -> final (monitor)': [],
    };
    const byPayment = new Map();
    for (const t of live) byPayment.set(`${t.payment_id}/${t.purpose}`, t);
    const ms = (d) => new Date(d).getTime();
    for (const id of ids) {
      const c = byPayment.get(`${id}/collect`);
      const st = byPayment.get(`${id}/settle`);
      if (!c || !st) continue;
      const v = Object.values(stages);
      v[0].push(ms(c.signed_at) - confirmedAt.get(id));
      v[1].push(ms(c.broadcast_at) - ms(c.signed_at));
      v[2].push(ms(c.finished_at) - ms(c.broadcast_at));
      v[3].push(ms(st.signed_at) - ms(c.finished_at));
      v[4].push(ms(st.broadcast_at) - ms(st.signed_at));
      v[5].push(ms(st.finished_at) - ms(st.broadcast_at));
    }
    // Progress over time: how many transactions the relayer had signed, broadcast and finished per second.
    const timeline = [];
    const end = wall0 + (t1 - t0);
    for (let t = wall0; t < end + 1000; t += 1000) {
      const upTo = (f) => live.filter((x) => x[f] && ms(x[f]) < t + 1000).length;
      timeline.push({
        s: Math.round((t - wall0) / 1000),
        signed: upTo('signed_at'),
        broadcast: upTo('broadcast_at'),
        final: upTo('finished_at'),
      });
    }
    const gasOf = (purpose) =>
      meanGas(
        chain.rpcUrl,
        live.filter((t) => t.purpose === purpose && t.status === 'confirmed').map((t) => t.tx_hash),
      );
    const gas = {
      transfer: await meanGas(chain.rpcUrl, hashes.slice(0, 50)),
      collect: await gasOf('collect'),
      settle: await gasOf('settle'),
    };
    return {
      gas,
      baseRate,
      baseOk,
      rate,
      settled,
      shown,
      succeededS: succeededAt && (succeededAt - t0) / 1000,
      confirmsS: ((confirmsDone ?? t1) - t0) / 1000,
      totalS: (t1 - t0) / 1000,
      txCount: live.length,
      dropped: txs.length - live.length,
      gaps,
      duplicates,
      dupSettles,
      chainSent: nonceAfter - nonceBefore,
      dbNonces: live.length,
      stages,
      timeline,
      xactsDuring,
      cpu,
      profile,
    };
  } finally {
    if (svc) await svc.stop();
    if (proxy) await proxy.close();
    await chain.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
