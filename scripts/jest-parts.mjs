// What scripts/test-jest.mjs needs to run every integration test once: which files have tests tagged
// [own service] (run in process), which files go through Prism, and one jest report out of its parts' reports.
import fs from 'node:fs';
import path from 'node:path';

const OWN_TEST = /\b(describeOwn|itOwn|testOwn)\(/;

/** tests/integration files (relative to root) with tests that need a service of their own. */
export function ownServiceFiles(root) {
  const dir = path.join(root, 'tests/integration');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts') && OWN_TEST.test(fs.readFileSync(path.join(dir, f), 'utf8')))
    .sort()
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

const ran = (t) => t.status === 'passed' || t.status === 'failed';

/**
 * The tests/integration files (relative to root) the Prism part runs: all but those whose every test ran in the
 * in-process part's report `own` (each would only be loaded to skip every test); all of them without that report.
 */
export function prismFiles(root, own) {
  const done = new Set(
    (own?.testResults ?? []).filter((r) => r.assertionResults?.length && r.assertionResults.every(ran)).map((r) => r.name),
  );
  return fs
    .readdirSync(path.join(root, 'tests/integration'))
    .filter((f) => f.endsWith('.test.ts') && !done.has(path.join(root, 'tests/integration', f)))
    .sort()
    .map((f) => `tests/integration/${f}`);
}

const pending = (t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'disabled';
const isIntegration = (file) => file.split(path.sep).join('/').includes('/tests/integration/');
const MODES =
  'an integration test runs once: in process when tagged [own service] (describeOwn/itOwn, tests/support/service.ts), else through Prism';

/** A file's results from several parts as one: each test with the outcome of the part that ran it, and how many did. */
function mergeFile(results) {
  const tests = [];
  const byName = new Map(); // fullName -> indices in tests not yet matched in the current part
  for (const r of results) {
    const queues = new Map([...byName].map(([k, v]) => [k, [...v]]));
    for (const t of r.assertionResults ?? []) {
      const i = queues.get(t.fullName)?.shift();
      if (i === undefined) {
        tests.push({ test: t, runs: ran(t) ? 1 : 0 });
        byName.set(t.fullName, [...(byName.get(t.fullName) ?? []), tests.length - 1]);
      } else if (ran(t)) {
        tests[i] = { test: tests[i].test.status === 'failed' ? tests[i].test : t, runs: tests[i].runs + 1 };
      }
    }
  }
  const first = results[0];
  return {
    ...first,
    status: results.some((r) => r.status === 'failed') ? 'failed' : first.status,
    message: results
      .map((r) => r.message)
      .filter(Boolean)
      .join('\n'),
    startTime: Math.min(...results.map((r) => r.startTime)),
    endTime: Math.max(...results.map((r) => r.endTime)),
    tests,
  };
}

/**
 * One jest report out of the parts' ({name, code, report}): each test file once, each test once, counts from
 * them. When both the in-process and the Prism part reported, an integration test that ran in neither (or in
 * both) fails. A part without a report counts as a suite that could not run.
 */
export function mergeReports(parts) {
  const byFile = new Map();
  for (const { report } of parts) for (const r of report?.testResults ?? []) byFile.set(r.name, [...(byFile.get(r.name) ?? []), r]);
  const checkModes = ['own', 'prism'].every((n) => parts.find((p) => p.name === n)?.report);
  const files = [...byFile.values()].map(mergeFile);
  let misplaced = 0;
  for (const f of files) {
    if (!checkModes || !isIntegration(f.name)) continue;
    for (const t of f.tests) {
      if (t.runs === 1 || t.test.status === 'todo') continue;
      misplaced++;
      f.status = 'failed';
      const why = `ran in ${t.runs} modes: ${MODES}`;
      t.test = { ...t.test, status: 'failed', failureMessages: [...(t.test.failureMessages ?? []), why] };
      f.message = `${f.message}\n${t.test.fullName}: ${why}`.trim();
    }
  }
  const all = files.flatMap((f) => f.tests.map((t) => t.test));
  const count = (ok) => all.filter(ok).length;
  const testResults = files.map(({ tests, ...f }) => ({ ...f, assertionResults: tests.map((t) => t.test) }));
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
