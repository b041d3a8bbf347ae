// Compiles the development USDT (contracts/tether/DevTetherToken.sol) with solc 0.4.18 from npm (its soljson.js
// is inside the package: no download) and writes contracts/tether/DevTetherToken.json, the artifact the devnet
// deploys, so no test compiles it. `--check` only compares: exit 1 when the committed artifact is not what the
// source and compiler give (tests/unit/devnetArtifacts.test.ts runs the same comparison).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(root, 'contracts/tether/DevTetherToken.sol');
const ARTIFACT = path.join(root, 'contracts/tether/DevTetherToken.json');
const CONTRACT = 'DevTetherToken';

export function compileTether() {
  const solc = require('solc');
  const out = solc.compile({ sources: { 'DevTetherToken.sol': fs.readFileSync(SOURCE, 'utf8') } }, 1);
  const errors = (out.errors ?? []).filter((e) => !/Warning:/.test(e));
  if (errors.length) throw new Error(`solc: ${errors.join('\n')}`);
  const c = out.contracts[`DevTetherToken.sol:${CONTRACT}`];
  return {
    contract: CONTRACT,
    compiler: `solc ${solc.version()}`,
    optimizer: true,
    abi: JSON.parse(c.interface),
    bytecode: `0x${c.bytecode}`,
  };
}

export const committedTether = () => JSON.parse(fs.readFileSync(ARTIFACT, 'utf8'));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = compileTether();
  if (process.argv.includes('--check')) {
    if (JSON.stringify(built) !== JSON.stringify(committedTether())) {
      console.error(
        `${path.relative(root, ARTIFACT)} is not what ${path.relative(root, SOURCE)} compiles to: run node scripts/build-tether.mjs`,
      );
      process.exit(1);
    }
  } else {
    fs.writeFileSync(ARTIFACT, JSON.stringify(built, null, 1) + '\n');
    console.log(`wrote ${path.relative(root, ARTIFACT)} (${(built.bytecode.length - 2) / 2} bytes of creation code, ${built.compiler})`);
  }
}
