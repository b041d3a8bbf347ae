// What scripts/test-jest.mjs needs to run every integration test once: which tests/integration files run in
// process and which go through Prism (each file declares its part by its name), and one jest report out of its
// parts' reports.
import fs from 'node:fs';
import path from 'node:path';

/** An integration file that needs a service, database, chain or environment of its own: `<name>.own.test.ts`. */
export const OWN_FILE = /\.own\.test\.ts$/;

const integrationFiles = (root) =>
  fs
    .readdirSync(path.join(root, 'tests/integration'))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();

/** tests/integration files (relative to root) that run in process: those named `*.own.test.ts`. */
export function ownServiceFiles(root) {
  return integrationFiles(root)
    .filter((f) => OWN_FILE.test(f))
    .map((f) => `tests/integration/${f}`);
}

/** tests/integration files (relative to root) that run through Prism: every other one. */
export function prismFiles(root) {
  return integrationFiles(root)
    .filter((f) => !OWN_FILE.test(f))
    .map((f) => `tests/integration/${f}`);
}

// A fault scenario that measures latencies (tests/faults/kit.ts latency()) compares them with a baseline of the
// same test: it runs alone, so that no neighbouring file skews either. The others run side by side.
const MEASURES_LATENCY = /\blatency\(/;

/** tests/faults files (relative to root): `alone` (they measure latencies) and `together` (the rest). */
export function faultFiles(root) {
  const dir = path.join(root, 'tests/faults');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
  const measures = (f) => MEASURES_LATENCY.test(fs.readFileSync(path.join(dir, f), 'utf8'));
  const rel = (f) => `tests/faults/${f}`;
  return { alone: files.filter(measures).map(rel), together: files.filter((f) => !measures(f)).map(rel) };
}

const pending = (t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'disabled';
const isIntegration = (file) => file.split(path.sep).join('/').includes('/tests/integration/');
const partOf = (file) => (OWN_FILE.test(file) ? 'own' : 'prism');

/**
 * One jest report out of the parts' ({name, code, report}): each test file once, counts from its tests. An
 * integration file reported by a part other than the one its name declares (own: `*.own.test.ts`, else prism),
 * or by two parts, fails. A part without a report counts as a suite that could not run.
 */
export function mergeReports(parts) {
  const byFile = new Map();
  for (const { name, report } of parts)
    for (const r of report?.testResults ?? []) byFile.set(r.name, [...(byFile.get(r.name) ?? []), { part: name, r }]);
  let misplaced = 0;
  const files = [...byFile.entries()].map(([file, runs]) => {
    const f = { ...runs[0].r, tests: runs.flatMap(({ r }) => r.assertionResults ?? []) };
    const wrong = isIntegration(file) && (runs.length > 1 || runs[0].part !== partOf(file));
    if (!wrong) return f;
    misplaced++;
    const why = `ran in ${runs.map((x) => x.part).join(' and ')}; its name declares ${partOf(file)} (scripts/jest-parts.mjs)`;
    return {
      ...f,
      status: 'failed',
      message: `${f.message ?? ''}\n${why}`.trim(),
      tests: f.tests.map((t) => ({ ...t, status: 'failed', failureMessages: [...(t.failureMessages ?? []), why] })),
    };
  });
  const all = files.flatMap((f) => f.tests);
  const count = (ok) => all.filter(ok).length;
  const testResults = files.map(({ tests, ...f }) => ({ ...f, assertionResults: tests }));
  const allPending = (f) => f.assertionResults.length > 0 && f.assertionResults.every(pending);
  return {
    success: misplaced === 0 && parts.every(({ code, report }) => code === 0 && report?.success === true),
    numTotalTests: all.length,
    numPassedTests: count((t) => t.status === 'passed'),
    numFailedTests: count((t) => t.status === 'failed'),
    numPendingTests: count(pending),
    numTodoTests: count((t) => t.status === 'todo'),
    numTotalTestSuites: testResults.length,
    numPassedTestSuites: testResults.filter((f) => f.status !== 'failed' && !allPending(f)).length,
    numFailedTestSuites: testResults.filter((f) => f.status === 'failed').length,
    numPendingTestSuites: testResults.filter((f) => f.status !== 'failed' && allPending(f)).length,
    numRuntimeErrorTestSuites: parts.reduce((n, { report }) => n + (report ? (report.numRuntimeErrorTestSuites ?? 0) : 1), 0),
    startTime: Math.min(...parts.map(({ report }) => report?.startTime ?? Date.now())),
    parts: parts.map(({ name, code, report }) => ({
      name,
      exit: code,
      passed: report?.numPassedTests ?? 0,
      failed: report?.numFailedTests ?? 0,
      skipped: report?.numPendingTests ?? 0,
    })),
    testResults,
  };
}
