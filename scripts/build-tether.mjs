// Compiles the development chains' own contracts with solc 0.4.18 from npm (its soljson.js is inside the package:
// no download) and writes each one's artifact beside its source, so no test compiles them: the development USDT
// (contracts/tether/DevTetherToken.sol, deployed by the devnet), a minimal smart-contract wallet
// (contracts/wallet/DevSmartWallet.sol, deployed counterfactually by the ERC-6492 tests), the router of payments in
// the native coin (contracts/router/PaygateRouter.sol) and a Chainlink-like price feed (contracts/pricefeed/
// DevPriceFeed.sol), both deployed by the devnet (src/chain/devnetNative.ts). `--check` only compares:
// exit 1 when a committed artifact is not what its source and the compiler give (tests/unit/devnetArtifacts.test.ts
// runs the same comparison).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CONTRACTS = [
  { dir: 'contracts/tether', name: 'DevTetherToken' },
  { dir: 'contracts/wallet', name: 'DevSmartWallet' },
  { dir: 'contracts/router', name: 'PaygateRouter' },
  { dir: 'contracts/pricefeed', name: 'DevPriceFeed' },
];
const files = ({ dir, name }) => ({ source: path.join(root, dir, `${name}.sol`), artifact: path.join(root, dir, `${name}.json`) });

function compile(contract) {
  const solc = require('solc');
  const file = `${contract.name}.sol`;
  const out = solc.compile({ sources: { [file]: fs.readFileSync(files(contract).source, 'utf8') } }, 1);
  const errors = (out.errors ?? []).filter((e) => !/Warning:/.test(e));
  if (errors.length) throw new Error(`solc: ${errors.join('\n')}`);
  const c = out.contracts[`${file}:${contract.name}`];
  return {
    contract: contract.name,
    compiler: `solc ${solc.version()}`,
    optimizer: true,
    abi: JSON.parse(c.interface),
    bytecode: `0x${c.bytecode}`,
  };
}

const committed = (contract) => JSON.parse(fs.readFileSync(files(contract).artifact, 'utf8'));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const contract of CONTRACTS) {
    const built = compile(contract);
    const { source, artifact } = files(contract);
    if (process.argv.includes('--check')) {
      if (JSON.stringify(built) !== JSON.stringify(committed(contract))) {
        console.error(
          `${path.relative(root, artifact)} is not what ${path.relative(root, source)} compiles to: run node scripts/build-tether.mjs`,
        );
        process.exit(1);
      }
    } else {
      fs.writeFileSync(artifact, JSON.stringify(built, null, 1) + '\n');
      console.log(`wrote ${path.relative(root, artifact)} (${(built.bytecode.length - 2) / 2} bytes of creation code, ${built.compiler})`);
    }
  }
}
