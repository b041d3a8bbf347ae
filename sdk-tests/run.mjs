#!/usr/bin/env node
// make test-sdks: the clients against the built service on a throwaway PostgreSQL and its own development
// chain (contract-tests/stack.mjs); the buyers are funded there and pay with real transactions:
//   1. the quickstart, twice: merchant side on @paygate/client and wallet on the generated typescript-fetch
//      SDK, then the other way round (examples/quickstart, run with tsx);
//   2. the pytest smoke test of the generated Python client (sdk-tests/python, in .venv/sdk).
// Closes with `sdks: N passed, N failed` (each quickstart run and each pytest test is one) and writes the
// counts to sdk-tests/reports/counts.json. Everything it starts is stopped, also on failure or Ctrl-C.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, startStack } from '../contract-tests/stack.mjs';

const reports = path.join(root, 'sdk-tests/reports');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const python = path.join(root, '.venv/sdk/bin/python');
const junit = path.join(reports, 'pytest.xml');

const children = new Set();
let stack;
function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    children.add(child);
    child.on('error', reject);
    child.on('exit', (code) => { children.delete(child); resolve(code); });
  });
}
async function cleanup() {
  for (const c of children) c.kill('SIGTERM');
  if (stack) await stack.stop();
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, async () => { await cleanup(); process.exit(130); });

/** pytest's JUnit report: tests, failures and errors of the (single) suite. */
function pytestCounts() {
  if (!fs.existsSync(junit)) return { passed: 0, failed: 1 };
  const xml = fs.readFileSync(junit, 'utf8');
  const attr = (name) => Number(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const failed = attr('failures') + attr('errors');
  return { passed: attr('tests') - failed - attr('skipped'), failed: failed || (attr('tests') === 0 ? 1 : 0) };
}

async function main() {
  fs.rmSync(reports, { recursive: true, force: true });
  fs.mkdirSync(reports, { recursive: true });
  let passed = 0;
  let failed = 0;
  try {
    console.log('sdks: starting PostgreSQL and the service');
    stack = await startStack({ logFile: path.join(reports, 'service.log') });
    // DEVNET_DIR: the admin command's `devnet info` and `devnet fund` reach the stack's development chain.
    const env = { ...process.env, PAYGATE_URL: stack.url, DATABASE_URL: stack.databaseUrl, DEVNET_DIR: stack.devnet.dir };

    for (const variant of ['thin', 'sdk']) {
      console.log(`\nsdks: quickstart --variant ${variant}`);
      const code = await run(tsx, ['examples/quickstart/quickstart.ts', '--variant', variant], env);
      if (code === 0) passed++;
      else { failed++; console.log(`sdks: quickstart --variant ${variant} FAILED (exit ${code})`); }
    }

    console.log('\nsdks: pytest sdk-tests/python (generated Python client)');
    await run(python, ['-m', 'pytest', 'sdk-tests/python', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`], {
      ...env, PYTHONPATH: path.join(root, 'generated/2026-02-18/sdk/python'), PYTHONDONTWRITEBYTECODE: '1',
    });
    const py = pytestCounts();
    passed += py.passed;
    failed += py.failed;
  } catch (e) {
    console.error(`sdks: ${e instanceof Error ? e.stack : e}`);
    failed++;
  } finally {
    await cleanup();
  }
  fs.writeFileSync(path.join(reports, 'counts.json'), JSON.stringify({ passed, failed }) + '\n');
  console.log(`sdks: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
