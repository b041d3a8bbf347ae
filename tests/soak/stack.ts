import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWalletClient, getAddress, http, parseAbi, parseGwei, publicActions, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { devnetChain, devnetDeployer, devnetTokenAddress } from '../../src/chain/devnet';
import { startDevnetChain } from '../../src/chain/devnetTokens';
import { DEVNET_CHAINS } from '../../src/chain/devnetChains';
import { anvilRpc } from '../../src/chain/anvil';
import { freePort } from '../support/chain';
import { startRpcProxy } from '../support/rpcProxy';
import { spawnService, type ServiceProcess } from '../support/serviceProcess';
import { stoppablePostgres } from '../support/stoppablePostgres';

// What a soak runs on, all of its own: a PostgreSQL it can stop, a development chain mining a block a second
// (so transactions wait in the pool, where they can be dropped), a fault-injecting JSON-RPC proxy in front of it
// that the service processes use (the soak itself talks to the chain directly), the second development chain (a
// block a second, no faults: some payments, refunds and their funding go there, with the same relayer keys), and
// two service processes sharing two relayer keys, each of which can be killed and started again.

const TOKEN_ADMIN = parseAbi([
  'function pause()',
  'function unpause()',
  'function paused() view returns (bool)',
  'function mint(address to, uint256 amount) returns (bool)',
]);
export const USDC = devnetTokenAddress('USDC');
/** The development chains' ids: the first, behind the fault-injecting proxy, and the second. */
export const CHAIN_1 = DEVNET_CHAINS[0].chainId;
export const CHAIN_2 = DEVNET_CHAINS[1].chainId;

export type SoakStack = Awaited<ReturnType<typeof startSoakStack>>;

export async function startSoakStack(env: Record<string, string>) {
  const pg = await stoppablePostgres('paygate_soak');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-soak-'));
  const anvil = await startDevnetChain({ dir, port: await freePort(), blockTimeS: 1 });
  const anvil2 = await startDevnetChain({ dir, port: await freePort(), chainId: CHAIN_2, blockTimeS: 1 });
  const proxy = await startRpcProxy(anvil.rpcUrl);
  const keys = [generatePrivateKey(), generatePrivateKey()];
  const relayers = keys.map((k) => privateKeyToAddress(k));
  const procEnv = {
    DATABASE_URL: pg.url,
    DEVNET_RPC_URL: proxy.url,
    DEVNET2_RPC_URL: anvil2.rpcUrl,
    DEVNET_DIR: dir,
    DEVNET_RELAYER_KEYS: keys.join(','),
    DEVNET_CONFIRMATIONS: '3',
    CHAIN_STUCK_AFTER_MS: '4000',
    CHAIN_POLL_INTERVAL_MS: '250',
    // The soak refunds half of payments from USD 1.00 up, and its fee faults raise gas: at the default refund minimum
    // most of its refunds would be refused (tests/integration/refundLimits.test.ts tests the minimum).
    REFUND_MIN_USD_MINOR: '1',
    CHAIN_31337_NATIVE_PRICE_USD: '1',
    CHAIN_31338_NATIVE_PRICE_USD: '1',
    NODE_ENV: 'test',
    ...env,
  };
  const processes: (ServiceProcess | null)[] = [];
  for (let i = 0; i < 2; i++) processes.push(await spawnService(procEnv)); // one after the other: the first migrates
  const rpc = (method: string, params: unknown[]): Promise<any> => anvilRpc(anvil.rpcUrl, method, params);
  const rpcUrls = { [CHAIN_1]: anvil.rpcUrl, [CHAIN_2]: anvil2.rpcUrl } as Record<number, string>;
  const ownerOn = (url: string, chainId: number) =>
    createWalletClient({ chain: devnetChain(url, chainId), transport: http(url), account: devnetDeployer }).extend(publicActions);
  const owners = { [CHAIN_1]: ownerOn(anvil.rpcUrl, CHAIN_1), [CHAIN_2]: ownerOn(anvil2.rpcUrl, CHAIN_2) } as Record<
    number,
    ReturnType<typeof ownerOn>
  >;
  const owner = owners[CHAIN_1];
  const sending: Record<number, Promise<unknown>> = { [CHAIN_1]: Promise.resolve(), [CHAIN_2]: Promise.resolve() };
  /** One deployer transaction at a time per chain (its nonce is read from the pool for each). */
  const fromOwner = (f: () => Promise<Hex>, chainId: number = CHAIN_1): Promise<Hex> => {
    const next = sending[chainId].then(f);
    sending[chainId] = next.catch(() => undefined);
    return next;
  };
  const receipt = async (hash: Hex, timeoutMs = 30_000, chainId: number = CHAIN_1) => {
    for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      const r = await anvilRpc(rpcUrls[chainId], 'eth_getTransactionReceipt', [hash]);
      if (r) return r as { status: string; blockNumber: string };
    }
    return null;
  };
  const ownerFees = { gas: 100_000n, maxFeePerGas: parseGwei('500'), maxPriorityFeePerGas: parseGwei('100') };
  const ownerCall = (functionName: 'pause' | 'unpause') =>
    fromOwner(() => owner.writeContract({ address: USDC, abi: TOKEN_ADMIN, functionName, args: [], ...ownerFees } as never));
  const chain = {
    rpcUrl: anvil.rpcUrl,
    /** Every development chain of the soak, the first (behind the proxy) first. */
    chains: [
      { chainId: CHAIN_1, rpcUrl: anvil.rpcUrl },
      { chainId: CHAIN_2, rpcUrl: anvil2.rpcUrl },
    ],
    rpc,
    /** Mints USDC to `to` on a chain and waits until it is mined; false if it was not (a reorg took it, say). */
    mint: async (to: Address, amount: bigint, chainId: number = CHAIN_1) => {
      for (let attempt = 1; attempt <= 5; attempt++) {
        try {
          const hash = await fromOwner(
            () => owners[chainId].writeContract({ address: USDC, abi: TOKEN_ADMIN, functionName: 'mint', args: [to, amount] } as never),
            chainId,
          );
          if ((await receipt(hash, 30_000, chainId))?.status === '0x1') return true;
        } catch {
          // Paused for a block (the token refuses), or a nonce the pool had not caught up with: again shortly.
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      return false;
    },
    pauseOneBlock: async () => {
      await receipt(await ownerCall('pause'));
      await receipt(await ownerCall('unpause'));
    },
    /**
     * A reorg drops the blocks it replaces with their transactions, and nobody sends the owner's unpause again: one
     * that took the unpause out of the chain would leave the token paused to the end. The owner unpauses it again
     * (true when it had to).
     */
    unpauseIfPaused: async () => {
      if (!(await owner.readContract({ address: USDC, abi: TOKEN_ADMIN, functionName: 'paused' }))) return false;
      await receipt(await ownerCall('unpause'));
      return true;
    },
    /** Drops one relayer transaction waiting in the pool (tries for a few seconds); its hash, or null. */
    dropRelayerTransaction: async (relayers: Address[]) => {
      for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
        const pool = (await rpc('txpool_content', [])) as { pending: Record<string, Record<string, { hash: Hex }>> };
        for (const [from, byNonce] of Object.entries(pool.pending ?? {}))
          if (relayers.includes(getAddress(from))) {
            const tx = Object.values(byNonce)[0];
            await rpc('anvil_dropTransaction', [tx.hash]);
            return tx.hash;
          }
      }
      return null;
    },
  };
  let next = 0;
  /** Processes killed by a fault: their logs stay readable. */
  const killed: ServiceProcess[] = [];
  return {
    pg,
    proxy,
    chain,
    relayers,
    processes,
    /** A live process's URL, in turns (none: the caller retries). */
    url: () => {
      const live = processes.filter((p): p is ServiceProcess => p !== null);
      return live.length ? live[next++ % live.length].url : null;
    },
    logs: () => [...killed, ...processes].flatMap((p) => p?.logs ?? []),
    /** The processes that ended on their own (not killed by a fault): each with its exit code and stderr's end. */
    deaths: () =>
      processes.flatMap((p, i) =>
        p && (p.proc.exitCode !== null || p.proc.signalCode !== null)
          ? [`service process ${i} exited on its own (code ${p.proc.exitCode}, signal ${p.proc.signalCode}): ${p.stderr().slice(-1500)}`]
          : [],
      ),
    killProcess: async (i: number) => {
      const p = processes[i];
      processes[i] = null;
      if (p) killed.push(p);
      await p?.kill('SIGKILL');
    },
    restartProcess: async (i: number) => {
      processes[i] = await spawnService(procEnv);
    },
    close: async () => {
      for (const p of processes) await p?.kill('SIGKILL');
      await proxy.close();
      await anvil.stop();
      await anvil2.stop();
      await pg.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
