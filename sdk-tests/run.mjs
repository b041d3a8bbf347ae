#!/usr/bin/env node
// make test-sdks: the clients against the built service on a throwaway PostgreSQL and its own development
// chain (contract-tests/stack.mjs); the buyers are funded there and pay with real transactions:
//   1. the quickstart, twice: merchant side on @paygate/client and wallet on the generated typescript-fetch
//      SDK, then the other way round (examples/quickstart, run with tsx);
//      then the x402 example (examples/x402, npm run x402-example);
//   2. the pytest smoke test of the generated Python client (sdk-tests/python, in .venv/sdk);
//   3. a payment with each SDK package of each version (scripts/sdk-packages.mjs: npm pack, pip wheel),
//      installed into a clean folder (sdk-tests/installed.mjs). The packages build (or come from their
//      cache) and install while the stack starts and 1 and 2 run, one job at a time: one core for them.
// Closes with `sdks: N passed, N failed` (each quickstart run, the x402 example, each pytest test and each
// package's payment is one; a package that fails to build or install is one failed) and writes the counts to
// sdk-tests/reports/counts.json. Everything it starts is stopped, also on failure or Ctrl-C.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, startStack } from '../contract-tests/stack.mjs';
import { buildPackage } from '../scripts/sdk-packages.mjs';
import { VERSIONS } from '../scripts/sdk-tree.mjs';
import { installPython, installTypescript, removeInstalls } from './installed.mjs';

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
    child.on('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
  });
}
async function cleanup() {
  for (const c of children) c.kill('SIGTERM');
  if (stack) await stack.stop();
  removeInstalls();
}
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, async () => {
    await cleanup();
    process.exit(130);
  });

/** A queue: each job starts when the one before it has ended (well or not); the job's promise. */
function queue() {
  let tail = Promise.resolve();
  return (job) => {
    const p = tail.then(job);
    tail = p.catch(() => {});
    return p;
  };
}

// The tests an installed wheel runs (installed.mjs, `-k a_wallet_pays_on_chain`): a USDC payment and a USDT one
// through Permit2. Both must pass; a filter that selects fewer or more is a failure.
const WHEEL_PAYMENTS = 2;

/** pytest's JUnit report: tests, failures and errors of the (single) suite. */
function pytestCounts(file) {
  if (!fs.existsSync(file)) return { passed: 0, failed: 1 };
  const xml = fs.readFileSync(file, 'utf8');
  const attr = (name) => Number(new RegExp(`<testsuite [^>]*\\b${name}="(\\d+)"`).exec(xml)?.[1] ?? 0);
  const failed = attr('failures') + attr('errors');
  return { passed: attr('tests') - failed - attr('skipped'), failed: failed || (attr('tests') === 0 ? 1 : 0) };
}

async function main() {
  fs.rmSync(reports, { recursive: true, force: true });
  fs.mkdirSync(reports, { recursive: true });
  let passed = 0;
  let failed = 0;
  /** What failed, a line each: counts.json carries them, so CI's summary says which without the whole log. */
  const failures = [];
  const count = (ok, what) => {
    if (ok) passed++;
    else {
      failed++;
      failures.push(what);
      console.log(`sdks: ${what} FAILED`);
    }
  };
  const serially = queue();
  const installs = VERSIONS.flatMap((version) => {
    const pyJunit = path.join(reports, `pytest-${version}.xml`);
    const built = (sdk) => serially(() => buildPackage(version, sdk));
    return [
      {
        what: `@paygate/sdk package of ${version}`,
        installed: built('typescript').then((tgz) => serially(() => installTypescript(tgz, version))),
      },
      {
        what: `paygate_client wheel of ${version}`,
        junit: pyJunit,
        installed: built('python').then((whl) => serially(() => installPython(whl, version, pyJunit))),
      },
    ];
  });
  for (const i of installs) i.installed.catch(() => {}); // awaited (and counted) in turn below
  try {
    console.log('sdks: starting PostgreSQL and the service');
    // Nothing here sends webhooks or waits for the expiry sweep: those loops poll the database once a second and
    // every 5 s (the sweep's default), not 5 and 2 times a second as the integration suite's settings have it.
    const settings = { WEBHOOK_DISPATCH_INTERVAL_MS: '1000', SWEEP_INTERVAL_MS: '5000' };
    stack = await startStack({ logFile: path.join(reports, 'service.log'), env: settings });
    // DEVNET_DIR: the admin command's `devnet info` and `devnet fund` reach the stack's development chain.
    const env = { ...process.env, PAYGATE_URL: stack.url, DATABASE_URL: stack.databaseUrl, DEVNET_DIR: stack.devnet.dir };

    for (const variant of ['thin', 'sdk']) {
      console.log(`\nsdks: quickstart --variant ${variant}`);
      const code = await run(
        tsx,
        ['--tsconfig', 'examples/quickstart/tsconfig.json', 'examples/quickstart/quickstart.ts', '--variant', variant],
        env,
      );
      count(code === 0, `quickstart --variant ${variant} (exit ${code})`);
    }
    // The x402 example (docs/x402.md) by its documented command: @x402/express and @x402/fetch paying each other.
    console.log('\nsdks: npm run x402-example');
    const x402 = await run('npm', ['run', '--silent', 'x402-example'], env);
    count(x402 === 0, `x402 example (exit ${x402})`);

    console.log('\nsdks: pytest sdk-tests/python (generated Python client)');
    await run(python, ['-m', 'pytest', 'sdk-tests/python', '-q', '-p', 'no:cacheprovider', `--junitxml=${junit}`], {
      ...env,
      PYTHONPATH: path.join(root, 'generated/2026-02-18/sdk/python'),
      PYTHONDONTWRITEBYTECODE: '1',
    });
    const py = pytestCounts(junit);
    passed += py.passed;
    failed += py.failed;
    if (py.failed) failures.push(`pytest sdk-tests/python: ${py.failed} failed (its output above)`);

    delete env.PYTHONPATH;
    for (const i of installs) {
      console.log(`\nsdks: a payment with the ${i.what}, installed in a clean folder`);
      let payment;
      try {
        payment = await i.installed;
      } catch (e) {
        count(false, `${i.what}: build or install: ${e.message}`);
        continue;
      }
      if (payment.checked === 'kept') console.log('sdks: its type-check passed before on the same files (sdk-tests/typecheck.mjs)');
      const code = await run(payment.cmd, payment.args, { ...env, ...payment.env });
      count(code === 0 && (!i.junit || pytestCounts(i.junit).passed === WHEEL_PAYMENTS), `payment with the ${i.what} (exit ${code})`);
    }
  } catch (e) {
    console.error(`sdks: ${e instanceof Error ? e.stack : e}`);
    failures.push(String(e instanceof Error ? e.message : e));
    failed++;
  } finally {
    await Promise.allSettled(installs.map((i) => i.installed)); // no build or install left running in a removed folder
    await cleanup();
  }
  fs.writeFileSync(path.join(reports, 'counts.json'), JSON.stringify({ passed, failed, failures }) + '\n');
  console.log(`sdks: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
