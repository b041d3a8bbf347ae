import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEther, type Address } from 'viem';

// anvil, the binary shipped in its npm package, as the development chains run it, and the cheats of its RPC.

const anvilBinary = () => path.join(path.dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin/anvil');

/** One of anvil's `anvil_*` methods; throws with the node's message. */
export async function anvilRpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const r = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await r.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Gives `address` native currency for gas (an anvil cheat: the devnet's ETH is free). */
export async function devnetSetBalance(rpcUrl: string, address: Address, ether = '1000'): Promise<void> {
  await anvilRpc(rpcUrl, 'anvil_setBalance', [address, `0x${parseEther(ether).toString(16)}`]);
}

async function rpcChainId(rpcUrl: string): Promise<number | null> {
  try {
    const r = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(1000),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    const body = (await r.json()) as { result?: string };
    return body.result ? Number(BigInt(body.result)) : null;
  } catch {
    return null;
  }
}

export interface RunningAnvil {
  rpcUrl: string;
  /** Null when an anvil that was already running was reused. */
  child: ChildProcess | null;
  stop(): Promise<void>;
}

/**
 * Starts anvil for `chainId` on `port` with its state in `dir`/`stateFile` (loaded at start, written every second
 * and at exit), or reuses that chain already answering there (a previous process that died left it running).
 */
export async function startAnvil(opts: {
  dir: string;
  port: number;
  chainId: number;
  stateFile: string;
  host?: string;
  blockTimeS?: number;
  log?: (line: string) => void;
}): Promise<RunningAnvil> {
  const host = opts.host ?? '127.0.0.1';
  const rpcUrl = `http://${host}:${opts.port}`;
  const running = await rpcChainId(rpcUrl);
  if (running === opts.chainId) return { rpcUrl, child: null, stop: async () => {} };
  if (running !== null) throw new Error(`${rpcUrl} answers as chain ${running}, not the development chain ${opts.chainId}`);
  fs.mkdirSync(opts.dir, { recursive: true });
  const args = ['--host', host, '--port', String(opts.port), '--chain-id', String(opts.chainId)];
  args.push('--state', path.join(opts.dir, opts.stateFile), '--state-interval', '1', '--silent');
  if (opts.blockTimeS) args.push('--block-time', String(opts.blockTimeS));
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d) => opts.log?.(String(d)));
  const until = Date.now() + 15_000;
  while ((await rpcChainId(rpcUrl)) !== opts.chainId) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode} before it answered on ${rpcUrl}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${rpcUrl} within 15 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    rpcUrl,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM'); // anvil writes its state on exit
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
      clearTimeout(timer); // else it keeps the process alive for up to 5 s after anvil has exited
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
