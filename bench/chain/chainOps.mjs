// What the benchmark does on the chain itself, beside the service: sends with local nonces, receipts,
// mints, funded keys and buyers, gas read back from receipts.
import { createPublicClient, encodeFunctionData, getAddress, http as viemHttp } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ERC20, PERMIT2, PERMIT2_TOKEN, devnet } from './config.mjs';

export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Runs `work(i)` for i in 0..n-1, at most `c` at a time. */
export async function pool(n, c, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, c) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

export async function rpc(url, method, params = []) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await r.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * A key that sends with locally allocated nonces (what the baselines and the funding use): each send signs
 * the next nonce and hands the raw bytes to eth_sendRawTransaction; nothing waits for the chain.
 */
export async function localSender(rpcUrl, account) {
  const pub = createPublicClient({ chain: devnet.devnetChain(rpcUrl), transport: viemHttp(rpcUrl) });
  let nonce = await pub.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const fees = await pub.estimateFeesPerGas();
  const maxFeePerGas = fees.maxFeePerGas * 4n; // headroom for base-fee swings while many blocks are made
  return {
    pub,
    async send(to, data, gas = 120_000n, value = 0n) {
      const raw = await account.signTransaction({
        type: 'eip1559',
        chainId: devnet.DEVNET_CHAIN_ID,
        nonce: nonce++,
        to,
        data,
        gas,
        value,
        maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      return rpc(rpcUrl, 'eth_sendRawTransaction', [raw]);
    },
  };
}

export async function waitReceipt(rpcUrl, hash, everyMs = 10, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await rpc(rpcUrl, 'eth_getTransactionReceipt', [hash]);
    if (r) return r;
    if (Date.now() > until) throw new Error(`no receipt for ${hash}`);
    await sleep(everyMs);
  }
}

/** Mints a devnet token (USDC by default) to every address (deployer, local nonces), then waits for the last mint. */
async function mintAll(rpcUrl, addresses, amount, symbol = 'USDC') {
  const token = devnet.devnetTokenAddress(symbol);
  // Tether issues to its owner only: the total is issued to the deployer once, then transferred.
  const tether = symbol === PERMIT2_TOKEN;
  if (tether) await devnet.devnetMint(rpcUrl, token, devnet.devnetDeployer.address, amount * BigInt(addresses.length));
  const s = await localSender(rpcUrl, devnet.devnetDeployer);
  let last;
  for (const a of addresses)
    last = await s.send(
      token,
      encodeFunctionData({ abi: ERC20, functionName: tether ? 'transfer' : 'mint', args: [getAddress(a), amount] }),
    );
  const r = await waitReceipt(rpcUrl, last, 20, 60_000);
  if (r.status !== '0x1') throw new Error('mint reverted');
}

/** A funded key for the baselines: gas and USDC. */
export async function fundedKey(rpcUrl) {
  const account = privateKeyToAccount(generatePrivateKey());
  await devnet.devnetSetBalance(rpcUrl, account.address);
  await mintAll(rpcUrl, [account.address], 10n ** 15n);
  return account;
}
export const transferData = () =>
  encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [privateKeyToAccount(generatePrivateKey()).address, 1n] });

/** Buyers holding 10 units of the token; for Permit2, each with gas and its approve of Permit2 mined (not timed). */
export async function newBuyers(rpcUrl, n, symbol = 'USDC') {
  const buyers = Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
  await mintAll(
    rpcUrl,
    buyers.map((b) => b.address),
    10_000_000n,
    symbol,
  );
  if (symbol !== PERMIT2_TOKEN) return buyers;
  const approve = encodeFunctionData({ abi: ERC20, functionName: 'approve', args: [PERMIT2, 2n ** 256n - 1n] });
  await pool(n, 20, async (i) => {
    await devnet.devnetSetBalance(rpcUrl, buyers[i].address);
    const r = await waitReceipt(rpcUrl, await (await localSender(rpcUrl, buyers[i])).send(devnet.devnetTokenAddress(symbol), approve));
    if (r.status !== '0x1') throw new Error('approve reverted');
  });
  return buyers;
}

/** Mean gas used by the receipts of `hashes`. */
export async function meanGas(rpcUrl, hashes) {
  const rs = await Promise.all(hashes.map((h) => rpc(rpcUrl, 'eth_getTransactionReceipt', [h])));
  return rs.reduce((a, r) => a + Number(BigInt(r.gasUsed)), 0) / Math.max(1, rs.length);
}
