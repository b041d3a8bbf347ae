// Part 5 of the on-chain benchmark: payments in the chain's own coin (docs/native.md), beside the token payments of
// parts 2 and 3. A direct-mode merchant settles `eip155:31337/slip44:60` to its wallet (collector mode is offered no
// ETH option yet); each buyer holds only ETH. Before the timed run, each payment's options are read and its build
// action fetched into the one eth_sendTransaction to the router (as a wallet does before it asks its user). Timed:
// each buyer signs that transaction (the params unchanged, gas and fees its own) and broadcasts it, then the wallet
// confirms with its hash, CONCURRENCY at a time, until the relayer's watch has every payment `succeeded`. The relayer
// sends nothing. Baseline, on the same anvil: part 2's N ERC-20 transfers from one key. Gas per payment is the
// buyer's transaction's gasUsed from its receipt (beside a plain ETH transfer's); checked: every payment succeeded
// with the buyer's transaction, and the merchant's wallet received exactly the sum of the quotes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../lib.mjs';
import { CONCURRENCY, N, POLL_MS, devnet } from './config.mjs';
import { meanGas, pool, rpc, sleep, waitReceipt } from './chainOps.mjs';
import { cpuByKind } from './profile.mjs';
import { startService } from './service.mjs';
import { transferBaseline } from './throughput.mjs';

export const ETH = `eip155:${31337}/slip44:60`;

/** A payment, its ETH option for `buyer`, and the fetched transaction (eth_sendTransaction's one parameter). */
async function prepare(svc, buyer, ref) {
  const { paymentId } = await svc.merchant('POST', '/v1/payments', {
    referenceId: ref,
    amount: { unit: 'iso4217/USD', value: '100' },
  });
  const { options } = await svc.gateway('POST', `/v1/gateway/payment/${paymentId}/options`, {
    accounts: [`eip155:31337:${buyer.address}`],
  });
  const opt = options.find((o) => o.amount.unit === `caip19/${ETH}`);
  if (!opt) throw new Error(`payment ${paymentId}: no ETH option (${options.map((o) => o.amount.unit).join(', ')})`);
  const build = opt.actions.find((a) => a.type === 'build');
  if (!build || opt.actions.length !== 1) throw new Error(`option ${opt.id}: ${JSON.stringify(opt.actions)}`);
  const { actions } = await svc.gateway('POST', `/v1/gateway/payment/${paymentId}/fetch`, { optionId: opt.id, data: build.data.data });
  const [a] = actions;
  if (actions.length !== 1 || a.data.method !== 'eth_sendTransaction') throw new Error(`fetch answered ${JSON.stringify(actions)}`);
  return { paymentId, optionId: opt.id, tx: a.data.params[0], buyer };
}

/** The buyer's wallet: signs the fetched transaction as it is (nonce 0: a new key), broadcasts it; the hash. */
async function sendAsBuyer(rpcUrl, fees, p) {
  const raw = await p.buyer.signTransaction({
    type: 'eip1559',
    chainId: devnet.DEVNET_CHAIN_ID,
    nonce: 0,
    to: getAddress(p.tx.to),
    data: p.tx.data,
    value: BigInt(p.tx.value),
    gas: 100_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  return rpc(rpcUrl, 'eth_sendRawTransaction', [raw]);
}

export async function nativeThroughput(pg) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-bench-anvil-'));
  const chain = await devnet.startDevnetChain({ dir, port: await freePort() });
  let svc;
  try {
    const { s, hashes: baseHashes, baseRate, baseOk } = await transferBaseline(chain.rpcUrl);
    // A plain ETH transfer to a new holder, for the gas column (from the baseline's key, 5 of them).
    const plain = [];
    for (let i = 0; i < 5; i++) {
      const to = privateKeyToAccount(generatePrivateKey()).address;
      plain.push(await s.send(to, '0x', 21_000n, 1n));
    }
    await waitReceipt(chain.rpcUrl, plain[plain.length - 1]);

    svc = await startService(
      pg,
      'paygate_bench_native',
      chain.rpcUrl,
      generatePrivateKey(),
      { CHAIN_POLL_INTERVAL_MS: POLL_MS },
      {},
      ETH,
      'direct',
    );
    const buyers = Array.from({ length: N }, () => privateKeyToAccount(generatePrivateKey()));
    await pool(N, 20, (i) => devnet.devnetSetBalance(chain.rpcUrl, buyers[i].address, '1'));
    const prepared = [];
    await pool(N, 10, async (i) => prepared.push(await prepare(svc, buyers[i], `eth${i}`)));
    const ids = prepared.map((p) => p.paymentId);
    const fees = await s.pub.estimateFeesPerGas();
    const maxFees = { maxFeePerGas: fees.maxFeePerGas * 4n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    const merchantBefore = BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [svc.merchantWallet, 'latest']));

    const sent = new Map();
    const cpu0 = cpuByKind();
    const t0 = performance.now();
    const confirming = pool(N, CONCURRENCY, async (i) => {
      const p = prepared[i];
      const hash = await sendAsBuyer(chain.rpcUrl, maxFees, p);
      sent.set(p.paymentId, hash);
      const c = await svc.gateway('POST', `/v1/gateway/payment/${p.paymentId}/confirm`, {
        optionId: p.optionId,
        results: [{ type: 'walletRpc', data: [hash] }],
      });
      if (c.status !== 'processing' && c.status !== 'succeeded') throw new Error(`confirm answered ${c.status}`);
    });
    let confirmsDone = null;
    confirming.then(() => {
      confirmsDone = performance.now();
    });
    let succeeded = 0;
    let failed = 0;
    const deadline = Date.now() + 180_000;
    for (;;) {
      const [row] = (
        await svc.db.raw(
          `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS ok, count(*) FILTER (WHERE status = 'failed')::int AS failed
           FROM payments WHERE id = ANY(?)`,
          [ids],
        )
      ).rows;
      succeeded = row.ok;
      failed = row.failed;
      if (succeeded + failed === N || Date.now() > deadline) break;
      await sleep(20);
    }
    const t1 = performance.now();
    const cpu1 = cpuByKind();
    const cpu = Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, v - (cpu0[k] || 0)]));
    await confirming;

    // Every payment succeeded with the buyer's own transaction; the merchant received the sum of the quotes.
    const hashes = [...sent.values()];
    const paidBy = new Map((await svc.db('payments').whereIn('id', ids).select('id', 'tx_hash')).map((r) => [r.id, r.tx_hash]));
    const sameTx = ids.filter((id) => paidBy.get(id)?.toLowerCase() === sent.get(id)?.toLowerCase()).length;
    const quoted = prepared.reduce((a, p) => a + BigInt(p.tx.value), 0n);
    const merchantAfter = BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [svc.merchantWallet, 'latest']));
    return {
      baseRate,
      baseOk,
      rate: succeeded / ((t1 - t0) / 1000),
      succeeded,
      failed,
      sameTx,
      received: merchantAfter - merchantBefore,
      quoted,
      totalS: (t1 - t0) / 1000,
      confirmsS: ((confirmsDone ?? t1) - t0) / 1000,
      cpu,
      gas: {
        transfer: await meanGas(chain.rpcUrl, baseHashes.slice(0, 50)),
        plainEth: await meanGas(chain.rpcUrl, plain),
        pay: await meanGas(chain.rpcUrl, hashes),
      },
      sound: succeeded === N && sameTx === N && merchantAfter - merchantBefore === quoted,
    };
  } finally {
    if (svc) await svc.stop();
    await chain.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
