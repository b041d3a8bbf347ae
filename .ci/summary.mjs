#!/usr/bin/env node
// The only lines .ci/run prints besides a failing step's log tail: per step, the test counts read from
// the report files the step writes, and at the end the closing line `ci: N passed, N failed`.
//
//   node .ci/summary.mjs test <exit code of make test>
//   node .ci/summary.mjs contract <exit code of make contract, or not-run>
//   node .ci/summary.mjs times <step>|total   (wall and CPU time per recipe line and step, see .ci/timed-shell)
//   node .ci/summary.mjs total <exit code of make test> <exit code of make contract, or not-run>
//     (the closing line; exits 1 when anything failed)
//
// Never zero-passed success: a report that is missing or unreadable (the step crashed, or never ran)
// counts as 1 failed; so does a report in which no test passed, and a step that exited non-zero although
// its reports show no failed test.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

process.chdir(path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};
const readText = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};
const isCount = (n) => Number.isInteger(n) && n >= 0;

/** One counted line: `label: P [unit ]passed, F failed[, S skipped][ (note)]`. Zero passed and zero failed is 1 failed. */
function counted(label, { passed, failed, skipped = 0, unit = '', note: why = '' }) {
  let note = why ? ` (${why})` : '';
  if (passed === 0 && failed === 0) {
    failed = 1;
    note = ' (no test ran, counted as 1 failed)';
  }
  const text = `${label}: ${passed} ${unit ? `${unit} ` : ''}passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${note}`;
  return { text, passed, failed };
}
const missing = (label, file, why = 'missing or unreadable') => ({
  text: `${label}: no report (${file} ${why}), counted as 1 failed`,
  passed: 0,
  failed: 1,
});

/** A `jest --json` report. Suites that could not run (numRuntimeErrorTestSuites) count as failed tests. */
function jestReport(label, file) {
  const r = readJson(file);
  if (!r || !isCount(r.numPassedTests) || !isCount(r.numFailedTests)) return missing(label, file);
  let failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  if (r.success === false && failed === 0) failed = 1;
  const line = counted(label, { passed: r.numPassedTests, failed, skipped: r.numPendingTests ?? 0 });
  return { ...line, text: [line.text, ...jestFailures(r)].join('\n') };
}

/** One line per failed test (and per suite that could not run) of a jest report, at most 20: file, name and the
 * first line of its message, so a red CI says which test without its full log. */
function jestFailures(r) {
  const rel = (f) => String(f ?? '').replace(`${process.cwd()}/`, '');
  const first = (m) =>
    (
      String(m ?? '')
        // eslint-disable-next-line no-control-regex -- the terminal colour codes jest writes
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n')
        .map((l) => l.trim())
        .find((l) => l && !l.startsWith('●')) ?? ''
    ).slice(0, 160);
  const lines = (r.testResults ?? []).flatMap((suite) => {
    const failedTests = (suite.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (failedTests.length === 0 && suite.status === 'failed') return [`  failed suite ${rel(suite.name)}: ${first(suite.message)}`];
    return failedTests.map((a) => `  failed ${rel(suite.name)} › ${a.fullName}: ${first(a.failureMessages?.[0])}`);
  });
  return lines.length > 20 ? [...lines.slice(0, 20), `  … and ${lines.length - 20} more`] : lines;
}

/** A failed soak's diagnosis (tests/soak/diagnose.ts), its first 80 lines, under the line it belongs to. */
function withDiagnosis(line, file) {
  const text = readText(file);
  if (text === undefined) return line;
  const lines = text.trimEnd().split('\n');
  const shown = lines.slice(0, 80).map((l) => `    ${l.slice(0, 400)}`);
  if (lines.length > 80) shown.push(`    … ${lines.length - 80} more lines in ${file}`);
  return { ...line, text: [line.text, `  soak diagnosis (${file}):`, ...shown].join('\n') };
}

/** `{passed, failed, failures?}` written by sdk-tests/run.mjs; each failure's first 12 lines, at most 10 failures. */
function countsReport(label, file) {
  const r = readJson(file);
  if (!r || !isCount(r.passed) || !isCount(r.failed)) return missing(label, file);
  const line = counted(label, r);
  const failures = (Array.isArray(r.failures) ? r.failures : []).slice(0, 10).map((f) =>
    String(f)
      .split('\n')
      .slice(0, 12)
      .map((l, i) => `  ${i ? '  ' : 'failed '}${l.slice(0, 300)}`)
      .join('\n'),
  );
  return { ...line, text: [line.text, ...failures].join('\n') };
}

/** contract-tests/run.mjs: `{passed, failed, parts: [{name, unit?, passed, failed, skipped?}]}`, one part per
 * Schemathesis version and run (make test runs the integration suite through Prism, in jest's line). */
function contractReport() {
  const file = 'contract-tests/reports/counts.json';
  const r = readJson(file);
  if (!r || !Array.isArray(r.parts) || r.parts.length === 0) return [missing('contract', file)];
  return r.parts.map((p) =>
    isCount(p?.passed) && isCount(p?.failed) ? counted(p.name, p) : missing(String(p?.name ?? 'contract'), file, 'has no counts for it'),
  );
}

function stepLines(step, code) {
  if (step === 'contract' && code === 'not-run') {
    return [{ text: 'contract: not run (make test failed), counted as 1 failed', passed: 0, failed: 1 }];
  }
  const lines =
    step === 'test'
      ? [
          withDiagnosis(jestReport('jest', 'coverage/jest-results.json'), 'coverage/soak-diagnosis.txt'),
          countsReport('sdks', 'sdk-tests/reports/counts.json'),
          jestReport('browser', 'coverage/browser-results.json'),
        ]
      : contractReport();
  if (code !== '0' && lines.every((l) => l.failed === 0)) {
    lines.push({ text: `make ${step}: exit ${code} although its reports show no failed test, counted as 1 failed`, passed: 0, failed: 1 });
  }
  return lines;
}

/** `wall user sys` that /usr/bin/time wrote for a step (its last line), as seconds; undefined when missing. */
function stepTime(step) {
  const last = (readText(`reports/ci/${step}.time`) ?? '').trim().split('\n').at(-1) ?? '';
  const [wall, user, sys] = last.split(' ').map(Number);
  return [wall, user, sys].every(Number.isFinite) ? { wall, cpu: user + sys } : undefined;
}
const secs = (t) => `wall ${t.wall.toFixed(0)} s, cpu ${t.cpu.toFixed(0)} s`;

/** A step's recipe lines that took a second or more (reports/ci/<step>.times, by .ci/timed-shell; nested makes
 * indented), the rest in one line, then the step's own total. */
function timeLines(step) {
  const rows = (readText(`reports/ci/${step}.times`) ?? '')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t'))
    .map(([wall, cpu, level, line]) => ({ wall: Number(wall), cpu: Number(cpu), level: Number(level) || 1, line: line ?? '' }));
  const big = rows.filter((r) => r.wall >= 1 || r.cpu >= 1);
  const small = rows.filter((r) => !big.includes(r));
  const out = big.map((r) => `time ${step} ${'  '.repeat(r.level - 1)}| ${r.line.replace(/^[@-]+/, '').slice(0, 90)}: ${secs(r)}`);
  if (small.length) out.push(`time ${step} | ${small.length} shorter lines: ${secs({ wall: sum(small, 'wall'), cpu: sum(small, 'cpu') })}`);
  const t = stepTime(step);
  out.push(`time ${step}: ${t ? secs(t) : 'not measured'} (cpu: user + sys of every process it waited for)`);
  return out;
}
const sum = (rows, key) => rows.reduce((n, r) => n + r[key], 0);

const [what, ...codes] = process.argv.slice(2);
if (what === 'times') {
  if (codes[0] === 'total') {
    const steps = ['test', 'contract'].map(stepTime).filter(Boolean);
    console.log(`time ci: ${secs({ wall: sum(steps, 'wall'), cpu: sum(steps, 'cpu') })} (both steps)`);
  } else for (const l of timeLines(codes[0])) console.log(l);
} else if (what === 'test' || what === 'contract') {
  for (const l of stepLines(what, codes[0] ?? '?')) console.log(l.text);
} else if (what === 'total') {
  const all = [...stepLines('test', codes[0] ?? '?'), ...stepLines('contract', codes[1] ?? '?')];
  const passed = all.reduce((n, l) => n + l.passed, 0);
  const failed = all.reduce((n, l) => n + l.failed, 0);
  console.log(`ci: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
} else {
  console.error('usage: node .ci/summary.mjs test|contract <exit code> | total <test exit code> <contract exit code>');
  process.exit(2);
}
