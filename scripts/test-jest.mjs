// make test's jest run, in parts, one report: coverage/jest-results.json (the summary lines read it). Every
// integration test file runs in one part, declared by its name: in process when it needs a service, database,
// chain or environment of its own (`<name>.own.test.ts`, scripts/jest-parts.mjs), else through Prism.
//  1. own, and beside it the unit, SDK and browser suites: the tests/integration/*.own.test.ts files
//     in parallel workers, each with a database of its own (tests/support/workerDatabase.ts); a file that changes
//     the chain for everyone (tests/integration/chain.own.test.ts: snapshots, automine off, reorgs) runs on a chain of
//     its own. They mostly wait on the chain and on their services (about 1.1 cores of 2 over their minutes), so
//     the idle core runs meanwhile the unit tests (tests/unit, one worker, no PostgreSQL or chain), the SDK suite
//     (sdk-tests/run.mjs) and the browser tests (jest.browser.config.js, Chromium), each against a stack of its own.
//  2. prism: the other tests/integration files once, against the built service behind the Prism validating
//     proxy of each version (contract-tests/run.mjs, CONTRACT_PARTS=prism): a Prism violation fails the part.
//  3. faults and soak, side by side (each with its own PostgreSQL and chain): the fault suite (tests/faults) in
//     parallel workers, but for the scenarios that measure latencies, and the chaos soak (tests/soak): two minutes
//     (SOAK_MINUTES) with a seed derived from the commit. The soak mostly waits (about a third of a core over its
//     minutes), so the cores it leaves idle run the fault scenarios meanwhile; it asserts invariants, not latencies.
//     Prism's part stays out of this step: its load beside the fault scenarios upsets those that race the chain.
//  4. faults-alone: the scenarios that measure latencies, one file at a time, nothing beside them: their
//     assertions compare a latency under load with an unloaded baseline measured in the same test, which a
//     neighbouring test file would skew.
// Every part always runs. The report counts each test once (an integration file in a part other than its name
// declares fails) and lists every part; a part that wrote no report counts as a failed suite. The SDK and browser
// suites keep reports of their own (sdk-tests/reports/counts.json, coverage/browser-results.json: their summary
// lines read those) and their output is printed whole after their step, not interleaved with the jest parts'.
// Exits non-zero when anything failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { timed } from './ci-times.mjs';
import { faultFiles, mergeReports, ownServiceFiles, prismFiles } from './jest-parts.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'coverage/jest-results.json');
const workers = `--maxWorkers=${process.env.JEST_WORKERS || '2'}`;
const jest = (args, env = {}) => ({ cmd: path.join(root, 'node_modules/.bin/jest'), args, env, jest: true });
const prismReports = path.join(root, 'coverage/prism');
const faults = faultFiles(root);
const unit = { name: 'unit', ...jest(['--maxWorkers=1', '-c', 'jest.unit.config.js']) };
const own = { name: 'own', ...jest([workers, ...ownServiceFiles(root)]) };
const prism = {
  name: 'prism',
  cmd: process.execPath,
  args: ['contract-tests/run.mjs'],
  env: () => ({
    CONTRACT_PARTS: 'prism',
    CONTRACT_REPORTS: prismReports,
    CONTRACT_PRISM_TESTS: prismFiles(root).join(','),
    CI_TIMES_DEPTH: String(Number(process.env.CI_TIMES_DEPTH || '1') + 1),
  }),
  report: path.join(prismReports, 'integration-through-prism.json'),
};
// Suites with reports of their own (not merged into coverage/jest-results.json): their output goes to `log`.
// make test-sdks runs it without NODE_ENV=test (the clients and examples run as a partner's would).
const log = (name) => path.join(root, `coverage/${name}.log`);
const sdks = { name: 'sdks', cmd: process.execPath, args: ['sdk-tests/run.mjs'], log: log('sdks'), unsetEnv: ['NODE_ENV'] };
const browser = {
  name: 'browser',
  ...jest(['-c', 'jest.browser.config.js', '--runInBand']),
  report: path.join(root, 'coverage/browser-results.json'),
  log: log('browser'),
};
const faultsTogether = { name: 'faults', ...jest([workers, ...faults.together]) };
const soak = { name: 'soak', ...jest(['--runInBand', 'tests/soak'], { SOAK_MINUTES: process.env.SOAK_MINUTES || '2' }) };
const faultsAlone = { name: 'faults-alone', ...jest(['--runInBand', ...faults.alone]) };
/** One step after another; the parts of a step side by side. */
const steps = [[own, unit, sdks, browser], [prism], [faultsTogether, soak], [faultsAlone]];

/** Runs `part` with the terminal as its output, or its `log` file; resolves to its exit status. */
function runPart(part, file) {
  const args = part.jest ? ['--json', `--outputFile=${file}`, ...part.args] : part.args;
  const out = part.log ? fs.openSync(part.log, 'w') : 'inherit';
  const env = { ...process.env, ...(typeof part.env === 'function' ? part.env() : part.env) };
  for (const k of part.unsetEnv ?? []) delete env[k];
  return new Promise((resolve) => {
    const child = spawn(part.cmd, args, { cwd: root, stdio: ['ignore', out, out], env });
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 1));
  }).finally(() => part.log && fs.closeSync(out));
}

fs.mkdirSync(path.dirname(out), { recursive: true });
const reports = [];
const separate = []; // {name, code} of the suites with reports of their own
for (const step of steps) {
  const files = step.map((part) => part.report ?? path.join(root, `coverage/jest-results-${part.name}.json`));
  for (const file of files) fs.rmSync(file, { force: true });
  const codes = await timed(step.map((part) => (part.log ? part.name : `jest ${part.name}`)).join(' + '), () =>
    Promise.all(step.map((part, i) => runPart(part, files[i]))),
  );
  step.forEach((part, i) => {
    const code = typeof codes[i] === 'number' ? codes[i] : 1;
    if (part.log) {
      console.log(`\n==== ${part.name} (${path.relative(root, part.log)})\n${fs.readFileSync(part.log, 'utf8')}`);
      separate.push({ name: part.name, code });
      return;
    }
    let report = null;
    try {
      report = JSON.parse(fs.readFileSync(files[i], 'utf8'));
    } catch {
      console.error(`test-jest: the ${part.name} part wrote no report (exit ${codes[i]})`);
    }
    reports.push({ name: part.name, code, report });
  });
}

const merged = mergeReports(reports);
fs.writeFileSync(out, JSON.stringify(merged));
for (const p of merged.parts)
  console.log(`test-jest: ${p.name}: exit ${p.exit}, ${p.passed} passed, ${p.failed} failed, ${p.skipped} skipped`);
for (const p of separate) console.log(`test-jest: ${p.name}: exit ${p.code} (its own report)`);
process.exit(merged.success && separate.every((p) => p.code === 0) ? 0 : 1);
