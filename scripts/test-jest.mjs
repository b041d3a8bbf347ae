// make test's jest run, in two parts, one report: coverage/jest-results.json (the summary lines read it).
//  1. Every test file but the fault suite, in parallel workers (JEST_WORKERS, 2 by default). Each worker has a
//     database of its own (tests/support/workerDatabase.ts); a file that changes the chain for everyone
//     (tests/integration/chain.test.ts: snapshots, automine off, reorgs) runs on a chain of its own.
//  2. The fault suite (tests/faults) alone, one file at a time: its assertions compare a latency under load
//     with an unloaded baseline measured in the same test, which a neighbouring test file would skew.
//  3. The chaos soak (tests/soak) alone: two minutes (SOAK_MINUTES) with a seed derived from the commit.
// Every part always runs. The report adds their counts and lists both parts' files; a part that wrote no
// report counts as a failed suite. Exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { timed } from './ci-times.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const out = path.join(root, 'coverage/jest-results.json');
const workers = process.env.JEST_WORKERS || '2';
const parts = [
  {
    name: 'parallel',
    args: [`--maxWorkers=${workers}`, '--testPathIgnorePatterns=/node_modules/|/tests/browser/|/tests/faults/|/tests/soak/'],
  },
  { name: 'faults', args: ['--runInBand', 'tests/faults'] },
  { name: 'soak', args: ['--runInBand', 'tests/soak'], env: { SOAK_MINUTES: process.env.SOAK_MINUTES || '2' } },
];

fs.mkdirSync(path.dirname(out), { recursive: true });
const reports = [];
for (const { name, args, env } of parts) {
  const file = path.join(root, `coverage/jest-results-${name}.json`);
  fs.rmSync(file, { force: true });
  const jest = path.join(root, 'node_modules/.bin/jest');
  const r = await timed(`jest ${name}`, () =>
    spawnSync(jest, ['--json', `--outputFile=${file}`, ...args], { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }),
  );
  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    console.error(`test-jest: the ${name} part wrote no report (exit ${r.status ?? r.signal})`);
  }
  reports.push({ name, code: r.status ?? 1, report });
}

const sum = (key) => reports.reduce((n, { report }) => n + (report?.[key] ?? 0), 0);
const merged = {
  success: reports.every(({ code, report }) => code === 0 && report?.success === true),
  numTotalTests: sum('numTotalTests'),
  numPassedTests: sum('numPassedTests'),
  numFailedTests: sum('numFailedTests'),
  numPendingTests: sum('numPendingTests'),
  numTodoTests: sum('numTodoTests'),
  numTotalTestSuites: sum('numTotalTestSuites'),
  numPassedTestSuites: sum('numPassedTestSuites'),
  numFailedTestSuites: sum('numFailedTestSuites'),
  numPendingTestSuites: sum('numPendingTestSuites'),
  numRuntimeErrorTestSuites: sum('numRuntimeErrorTestSuites') + reports.filter(({ report }) => !report).length,
  startTime: Math.min(...reports.map(({ report }) => report?.startTime ?? Date.now())),
  parts: reports.map(({ name, code, report }) => ({
    name,
    exit: code,
    passed: report?.numPassedTests ?? 0,
    failed: report?.numFailedTests ?? 0,
  })),
  testResults: reports.flatMap(({ report }) => report?.testResults ?? []),
};
fs.writeFileSync(out, JSON.stringify(merged));
process.exit(merged.success ? 0 : 1);
