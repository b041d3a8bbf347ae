import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEther, type Address } from 'viem';
import { spawnOwned, stopOwned } from '../lib/ownedProcess';
import { describeHolder, listening, PortTaken } from '../lib/ports';

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

/** anvil_metadata of the node at `rpcUrl` (its chain id and the random id of the running anvil), or null. */
async function anvilMetadata(rpcUrl: string): Promise<{ chainId: number; instanceId: string } | null> {
  try {
    const r = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(2000),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_metadata', params: [] }),
    });
    const body = (await r.json()) as { result?: { chainId: number; instanceId: string } };
    return body.result?.instanceId ? { chainId: Number(body.result.chainId), instanceId: body.result.instanceId } : null;
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

interface AnvilOptions {
  dir: string;
  port: number;
  chainId: number;
  stateFile: string;
  host?: string;
  blockTimeS?: number;
  /** The setting that moves the port, for the message when it is taken (DEVNET_PORT, DEVNET2_PORT). */
  portSetting?: string;
  log?: (line: string) => void;
}

/** Beside the state file: which anvil (anvil_metadata's instanceId) this folder's chain runs in, while it runs. */
const ownerFile = (o: AnvilOptions) => path.join(o.dir, `${o.stateFile.replace(/\.json$/, '')}.owner.json`);

/**
 * Who answers on the chain's port: nothing ('free'), the anvil this folder started (its instance id recorded
 * beside the state file: 'ours', a previous process that died left it running), or anything else, which throws
 * PortTaken naming it: another checkout's chain, another chain id, a process that is no anvil.
 */
export async function anvilOwnership(o: AnvilOptions): Promise<'free' | 'ours'> {
  if (!(await listening(o.port))) return 'free';
  const meta = await anvilMetadata(`http://${o.host ?? '127.0.0.1'}:${o.port}`);
  let recorded: string | null = null;
  try {
    recorded = (JSON.parse(fs.readFileSync(ownerFile(o), 'utf8')) as { instanceId: string }).instanceId;
  } catch {
    /* none */
  }
  if (meta && meta.chainId === o.chainId && meta.instanceId === recorded) return 'ours';
  const what = meta ? `an anvil (chain ${meta.chainId}) that this checkout did not start` : 'something that is not an anvil';
  throw new PortTaken(
    o.portSetting ?? 'the port',
    o.port,
    `${what}, ${describeHolder(o.port)}`,
    ` (this chain's state: ${path.join(o.dir, o.stateFile)})`,
  );
}

/**
 * Starts anvil for `chainId` on `port` with its state in `dir`/`stateFile` (loaded at start, written every second
 * and at exit), in a process group of its own (src/lib/ownedProcess.ts: the terminal's Ctrl-C does not reach it;
 * it stops when this process ends), or reuses that folder's chain already running there (anvilOwnership).
 */
export async function startAnvil(opts: AnvilOptions): Promise<RunningAnvil> {
  const host = opts.host ?? '127.0.0.1';
  const rpcUrl = `http://${host}:${opts.port}`;
  if ((await anvilOwnership(opts)) === 'ours') return { rpcUrl, child: null, stop: async () => {} };
  fs.mkdirSync(opts.dir, { recursive: true });
  const args = ['--host', host, '--port', String(opts.port), '--chain-id', String(opts.chainId)];
  args.push('--state', path.join(opts.dir, opts.stateFile), '--state-interval', '1', '--silent');
  if (opts.blockTimeS) args.push('--block-time', String(opts.blockTimeS));
  // SIGTERM: anvil writes its state and exits.
  const child = spawnOwned(anvilBinary(), args, 'TERM', { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d) => opts.log?.(String(d)));
  const until = Date.now() + 15_000;
  let meta: Awaited<ReturnType<typeof anvilMetadata>>;
  for (;;) {
    meta = await anvilMetadata(rpcUrl);
    if (meta?.chainId === opts.chainId) break;
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode} before it answered on ${rpcUrl}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${rpcUrl} within 15 s`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  fs.writeFileSync(ownerFile(opts), JSON.stringify({ instanceId: meta.instanceId, pid: child.pid, port: opts.port }) + '\n');
  return {
    rpcUrl,
    child,
    stop: async () => {
      await stopOwned(child, 'SIGTERM', 5000);
      fs.rmSync(ownerFile(opts), { force: true });
    },
  };
}
