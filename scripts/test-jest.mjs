// make test's jest run, in parts, one report: coverage/jest-results.json (the summary lines read it). Every
// integration test runs once: in process when it needs a service, database, chain or environment of its own
// (tagged [own service]: describeOwn/itOwn in tests/support/service.ts), else through Prism.
//  1. unit: tests/unit, in parallel workers (JEST_WORKERS, 2 by default), without PostgreSQL or a chain.
//  2. own: the [own service] tests of tests/integration (jest -t), in parallel workers. Each worker has a
//     database of its own (tests/support/workerDatabase.ts); a file that changes the chain for everyone
//     (tests/integration/chain.test.ts: snapshots, automine off, reorgs) runs on a chain of its own.
//  3. prism: the rest of tests/integration once, against the built service behind the Prism validating proxy
//     of each version (contract-tests/run.mjs, CONTRACT_PARTS=prism): a Prism violation fails the part. Files
//     whose every test ran in part 2 are left out.
//  4. faults: the fault suite (tests/faults) in parallel workers, but for the scenarios that measure latencies
//     (faults-alone: one file at a time, nothing beside them): their assertions compare a latency under load with
//     an unloaded baseline measured in the same test, which a neighbouring test file would skew.
//  5. soak: the chaos soak (tests/soak) alone: two minutes (SOAK_MINUTES) with a seed derived from the commit.
// Every part always runs. The report counts each test once (an integration file's tests are in two parts, each
// skipped in one) and lists every part; a part that wrote no report counts as a failed suite. Exits non-zero
// when anything failed.
import { spawnSync } from 'node:child_process';
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
const parts = [
  { name: 'unit', ...jest([workers, '-c', 'jest.unit.config.js']) },
  { name: 'own', ...jest([workers, '-t', '\\[own service\\]', ...ownServiceFiles(root)]) },
  {
    name: 'prism',
    cmd: process.execPath,
    args: ['contract-tests/run.mjs'],
    env: () => ({
      CONTRACT_PARTS: 'prism',
      CONTRACT_REPORTS: prismReports,
      CONTRACT_PRISM_TESTS: prismFiles(root, reports.find((r) => r.name === 'own')?.report).join(','),
      CI_TIMES_DEPTH: String(Number(process.env.CI_TIMES_DEPTH || '1') + 1),
    }),
    report: path.join(prismReports, 'integration-through-prism.json'),
  },
  { name: 'faults', ...jest([workers, ...faults.together]) },
  { name: 'faults-alone', ...jest(['--runInBand', ...faults.alone]) },
  { name: 'soak', ...jest(['--runInBand', 'tests/soak'], { SOAK_MINUTES: process.env.SOAK_MINUTES || '2' }) },
];

fs.mkdirSync(path.dirname(out), { recursive: true });
const reports = [];
for (const part of parts) {
  const file = part.report ?? path.join(root, `coverage/jest-results-${part.name}.json`);
  fs.rmSync(file, { force: true });
  const args = part.jest ? ['--json', `--outputFile=${file}`, ...part.args] : part.args;
  const r = await timed(`jest ${part.name}`, () =>
    spawnSync(part.cmd, args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...(typeof part.env === 'function' ? part.env() : part.env) },
    }),
  );
  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    console.error(`test-jest: the ${part.name} part wrote no report (exit ${r.status ?? r.signal})`);
  }
  reports.push({ name: part.name, code: r.status ?? 1, report });
}

const merged = mergeReports(reports);
fs.writeFileSync(out, JSON.stringify(merged));
for (const p of merged.parts)
  console.log(`test-jest: ${p.name}: exit ${p.exit}, ${p.passed} passed, ${p.failed} failed, ${p.skipped} skipped`);
process.exit(merged.success ? 0 : 1);
