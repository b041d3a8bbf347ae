// On-chain payment benchmark (not a test; make bench-chain): real payments through the HTTP API on anvil
// with Circle's FiatToken v2.2 USDC (buyers sign ReceiveWithAuthorization, the relayer submits, the
// monitor confirms, the settlement transfer pays the merchant). Each figure has a baseline measured in
// the same run on the same anvil: what the chain alone allows.
//   1. latency: confirm response -> status long-poll answers `succeeded`, anvil --block-time 1, depth 1,
//      monitor tick 100 ms; baseline: eth_sendRawTransaction of an ERC-20 transfer -> receipt available.
//   2. throughput: settled payments per second on ONE relayer key, anvil with automine; baseline: the same
//      number of ERC-20 transfers from one key with locally allocated nonces. Checked from the database
//      and the chain: no nonce gap, no duplicate submission. Where the time went, per stage, from the
//      timestamps of chain_transactions.
// The parts live in bench/chain/ (settings, chain operations, the service, latency, throughput, profiling).
// Run: make bench-chain   (BENCH_CHAIN_LATENCY_N=40, BENCH_CHAIN_N=200, BENCH_CHAIN_CONCURRENCY=20,
//      BENCH_CHAIN_POLL_MS=1000: the monitor tick of part 2, the service's default;
//      BENCH_CHAIN_PROFILE=1: in part 2, the service's RPC calls through a counting proxy, its database
//      sessions sampled every 10 ms (what they wait on), and a CPU profile of the service process;
//      BENCH_CHAIN_STATEMENTS=20: how many of the most frequent SQL statements the profile lists;
//      BENCH_CHAIN_BATCH_N=50: part 4, gas per payment settled on a schedule, one transfer for that many; 0 skips it;
//      BENCH_CHAIN_NATIVE=0 skips part 5)
//   5. native ETH: the same as 2 paid in the chain's own coin (docs/native.md) by a direct-mode merchant: each buyer's
//      own transaction to the router, confirmed with its hash; the relayer only watches. Same baseline as 2.
import os from 'node:os';
import { fmt, startPostgres } from './lib.mjs';
import { CONCURRENCY, LAT_CONCURRENCY, LAT_N, N, PERMIT2_TOKEN, POLL_MS, PROFILE } from './chain/config.mjs';
import { pct } from './chain/chainOps.mjs';
import { latency } from './chain/latency.mjs';
import { printProfile } from './chain/profile.mjs';
import { throughput } from './chain/throughput.mjs';
import { batched, BATCH_N } from './chain/batched.mjs';
import { ETH, nativeThroughput } from './chain/native.mjs';

async function main() {
  const pg = await startPostgres(PROFILE ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : []);
  try {
    const lat = LAT_N > 0 ? await latency(pg) : { base: [NaN], ours: [NaN], confirmMs: [NaN], stages: {} }; // 0: part 2 only
    console.log(
      `\n1. confirm -> succeeded, anvil --block-time 1, depth 1, monitor tick 100 ms, ${LAT_N} payments, ${LAT_CONCURRENCY} at a time`,
    );
    console.log(
      `  baseline (sendRawTransaction of an ERC-20 transfer -> receipt, polled every 10 ms): p50 ${fmt(pct(lat.base, 50))} ms, p99 ${fmt(pct(lat.base, 99))} ms`,
    );
    console.log(
      `  paygate (confirm response -> status long-poll says succeeded): p50 ${fmt(pct(lat.ours, 50))} ms, p99 ${fmt(pct(lat.ours, 99))} ms (confirm itself: p50 ${fmt(pct(lat.confirmMs, 50))} ms)`,
    );
    console.log(
      `  where the time went (ms per payment, p50 / p99): ${Object.entries(lat.stages)
        .map(([k, xs]) => `${k} ${fmt(pct(xs, 50))} / ${fmt(pct(xs, 99))}`)
        .join('; ')}`,
    );

    const tp = await throughput(pg);
    console.log(
      `\n2. settled payments per second, one relayer key, anvil automine, ${N} payments, ${CONCURRENCY} confirms in flight, monitor tick ${POLL_MS} ms`,
    );
    console.log(
      `  baseline (${N} ERC-20 transfers, one key, local nonces, ${CONCURRENCY} in flight): ${fmt(tp.baseRate)} tx/s (${tp.baseOk}/${N} succeeded)`,
    );
    console.log(
      `  paygate: ${tp.settled}/${N} settled in ${fmt(tp.totalS)} s = ${fmt(tp.rate)} payments/s (${fmt((2 * tp.settled) / tp.totalS)} relayer tx/s); confirms done at ${fmt(tp.confirmsS)} s, all succeeded at ${tp.succeededS === null ? '-' : fmt(tp.succeededS)} s; API shows ${tp.shown}/${N} settlements`,
    );
    console.log(
      `  relayer: ${tp.dbNonces} live transactions in the database (${tp.dropped} dropped), ${tp.chainSent} sent on chain; nonce gaps ${tp.gaps}, duplicate collects ${tp.duplicates}, duplicate settles ${tp.dupSettles}`,
    );
    console.log(
      `  database transactions during the run: ${tp.xactsDuring} (${fmt(tp.xactsDuring / Math.max(1, tp.settled))} per settled payment)`,
    );
    const cpuTotal = Object.values(tp.cpu).reduce((a, b) => a + b, 0);
    console.log(
      `  CPU during the run: ${Object.entries(tp.cpu)
        .map(([k, v]) => `${k} ${fmt(v)} s (${fmt((1000 * v) / Math.max(1, tp.settled))} ms per payment)`)
        .join(', ')}; ${fmt(cpuTotal / tp.totalS)} of ${os.cpus().length} cores busy with them; at ${fmt(
        (1000 * cpuTotal) / Math.max(1, tp.settled),
      )} ms of CPU per payment the machine's cores allow at most ${fmt((os.cpus().length * tp.settled) / Math.max(cpuTotal, 1e-9))} payments/s`,
    );
    console.log('  where the time went (ms per payment, p50 / p99 / max):');
    for (const [name, xs] of Object.entries(tp.stages))
      console.log(`    ${name}: ${fmt(pct(xs, 50))} / ${fmt(pct(xs, 99))} / ${fmt(Math.max(...xs))}`);
    console.log(
      `  relayer transactions by second (signed/broadcast/final): ${tp.timeline.map((x) => `${x.s}s ${x.signed}/${x.broadcast}/${x.final}`).join(', ')}`,
    );

    const p2 = process.env.BENCH_CHAIN_PERMIT2 === '0' ? null : await throughput(pg, PERMIT2_TOKEN);
    if (p2) {
      console.log(
        `\n3. Permit2: the same as 2, paid in ${PERMIT2_TOKEN} (Tether-like) through Permit2, buyers' approves mined before the run`,
      );
      console.log(`  baseline (${N} ERC-20 transfers, one key): ${fmt(p2.baseRate)} tx/s (${p2.baseOk}/${N} succeeded)`);
      console.log(
        `  paygate: ${p2.settled}/${N} settled in ${fmt(p2.totalS)} s = ${fmt(p2.rate)} payments/s; API shows ${p2.shown}/${N} settlements; nonce gaps ${p2.gaps}, duplicate collects ${p2.duplicates}, duplicate settles ${p2.dupSettles}`,
      );
    }
    console.log('\ngas per payment (mean of receipts) | plain transfer | collect | settle | collect + settle');
    for (const [name, x] of [['EIP-3009 (USDC)', tp], ...(p2 ? [[`Permit2 (${PERMIT2_TOKEN})`, p2]] : [])])
      console.log(`${name} | ${fmt(x.gas.transfer)} | ${fmt(x.gas.collect)} | ${fmt(x.gas.settle)} | ${fmt(x.gas.collect + x.gas.settle)}`);

    const bt = BATCH_N > 0 ? await batched(pg) : null;
    if (bt) {
      console.log(
        `\n4. gas per settled payment, immediate (part 2) and on a schedule (${bt.n} payments of one merchant, one slot, one transfer)`,
      );
      console.log('settlement | settle gas per payment | collect + settle per payment');
      console.log(`immediate (one transfer each) | ${fmt(tp.gas.settle)} | ${fmt(tp.gas.collect + tp.gas.settle)}`);
      console.log(
        `on a schedule (${bt.transactions} transfer of ${fmt(bt.batchGas)} gas for ${bt.n}) | ${fmt(bt.perPayment)} | ${fmt(bt.collect + bt.perPayment)}`,
      );
      console.log(`  the merchant received ${bt.received} units in that one transfer; ${bt.sound ? 'ok' : 'FAILED'}`);
    }

    const nt = process.env.BENCH_CHAIN_NATIVE === '0' ? null : await nativeThroughput(pg);
    if (nt) {
      console.log(
        `\n5. native ETH (${ETH}), direct mode: ${N} payments, ${CONCURRENCY} buyers sending and confirming at a time, monitor tick ${POLL_MS} ms; options and fetch before the run`,
      );
      console.log(`  baseline (${N} ERC-20 transfers, one key): ${fmt(nt.baseRate)} tx/s (${nt.baseOk}/${N} succeeded)`);
      console.log(
        `  paygate: ${nt.succeeded}/${N} succeeded (${nt.failed} failed) in ${fmt(nt.totalS)} s = ${fmt(nt.rate)} payments/s; sends + confirms done at ${fmt(nt.confirmsS)} s; ${nt.sameTx}/${N} paid by the buyer's transaction; the merchant received ${nt.received} wei of ${nt.quoted} quoted`,
      );
      const cpuT = Object.values(nt.cpu).reduce((a, b) => a + b, 0);
      console.log(
        `  CPU during the run: ${Object.entries(nt.cpu)
          .map(([k, v]) => `${k} ${fmt((1000 * v) / Math.max(1, nt.succeeded))} ms`)
          .join(', ')} per payment; ${fmt((1000 * cpuT) / Math.max(1, nt.succeeded))} ms in all`,
      );
      console.log("gas per payment (mean of receipts) | plain ERC-20 transfer | plain ETH transfer | the buyer's pay transaction");
      console.log(`native ETH | ${fmt(nt.gas.transfer)} | ${fmt(nt.gas.plainEth)} | ${fmt(nt.gas.pay)} (relayer: none)`);
    }

    const sound = (x) =>
      x.gaps === 0 && x.duplicates === 0 && x.dupSettles === 0 && x.chainSent === x.dbNonces && x.settled === N && x.shown === N;
    const ok = sound(tp) && (!p2 || sound(p2)) && (!bt || bt.sound) && (!nt || nt.sound);
    console.log('\nmeasure | baseline | paygate | ratio');
    console.log(
      `succeeded latency p50 (ms) | ${fmt(pct(lat.base, 50))} | ${fmt(pct(lat.ours, 50))} | ${fmt(pct(lat.ours, 50) / pct(lat.base, 50))}`,
    );
    console.log(
      `succeeded latency p99 (ms) | ${fmt(pct(lat.base, 99))} | ${fmt(pct(lat.ours, 99))} | ${fmt(pct(lat.ours, 99) / pct(lat.base, 99))}`,
    );
    console.log(
      `settled payments/s, one key (baseline: transfers/s) | ${fmt(tp.baseRate)} | ${fmt(tp.rate)} | ${fmt(tp.rate / tp.baseRate)}`,
    );
    console.log(
      `relayer transactions/s, one key (2 per payment) | ${fmt(tp.baseRate)} | ${fmt((2 * tp.settled) / tp.totalS)} | ${fmt((2 * tp.settled) / tp.totalS / tp.baseRate)}`,
    );
    if (p2)
      console.log(
        `Permit2 settled payments/s, one key (baseline: transfers/s) | ${fmt(p2.baseRate)} | ${fmt(p2.rate)} | ${fmt(p2.rate / p2.baseRate)}`,
      );
    if (nt) {
      console.log(
        `native ETH settled payments/s (baseline: transfers/s) | ${fmt(nt.baseRate)} | ${fmt(nt.rate)} | ${fmt(nt.rate / nt.baseRate)}`,
      );
      console.log(
        `native ETH settled payments/s (baseline: part 2's EIP-3009 payments/s) | ${fmt(tp.rate)} | ${fmt(nt.rate)} | ${fmt(nt.rate / tp.rate)}`,
      );
      const tokenGas = tp.gas.collect + tp.gas.settle;
      console.log(
        `gas per payment: native ETH (baseline: plain ERC-20 transfer) | ${fmt(nt.gas.transfer)} | ${fmt(nt.gas.pay)} | ${fmt(nt.gas.pay / nt.gas.transfer)}`,
      );
      console.log(
        `gas per payment: native ETH (baseline: EIP-3009 collect + settle) | ${fmt(tokenGas)} | ${fmt(nt.gas.pay)} | ${fmt(nt.gas.pay / tokenGas)}`,
      );
      console.log(
        `native ETH succeeded / paid by the buyer's tx / merchant received the quotes | - | ${nt.succeeded}/${N} / ${nt.sameTx}/${N} / ${nt.received === nt.quoted} | ${nt.sound ? 'ok' : 'FAILED'}`,
      );
    }
    console.log(
      `settled / nonce gaps / duplicate submissions | - | ${tp.settled}/${N} / ${tp.gaps} / ${tp.duplicates + tp.dupSettles} | ${ok ? 'ok' : 'FAILED'}`,
    );
    if (!ok) process.exitCode = 1;
    if (tp.profile) printProfile(tp.profile);
  } finally {
    await pg.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
