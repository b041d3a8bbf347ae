// .ci/summary.mjs: the jest line of a red CI names each failed test and each suite that could not run; the sdks line
// each failure sdk-tests/run.mjs recorded.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

/** The summary's `test` lines for a jest report, run in a folder of its own (the script reads paths from its parent). */
function testLines(report: unknown, sdkCounts?: unknown, soakDiagnosis?: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-summary-'));
  try {
    fs.mkdirSync(path.join(dir, '.ci'));
    fs.mkdirSync(path.join(dir, 'coverage'));
    fs.mkdirSync(path.join(dir, 'sdk-tests/reports'), { recursive: true });
    fs.copyFileSync(path.join(root, '.ci/summary.mjs'), path.join(dir, '.ci/summary.mjs'));
    fs.writeFileSync(path.join(dir, 'coverage/jest-results.json'), JSON.stringify(report));
    if (sdkCounts) fs.writeFileSync(path.join(dir, 'sdk-tests/reports/counts.json'), JSON.stringify(sdkCounts));
    if (soakDiagnosis !== undefined) fs.writeFileSync(path.join(dir, 'coverage/soak-diagnosis.txt'), soakDiagnosis);
    return execFileSync('node', [path.join(dir, '.ci/summary.mjs'), 'test', '1'], { encoding: 'utf8' })
      .trim()
      .split('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const assertion = (fullName: string, status: string, failureMessages: string[] = []) => ({ fullName, status, failureMessages });

it('names each failed test (file, name, first message line without colour codes) and each suite that could not run', () => {
  const lines = testLines({
    success: false,
    numPassedTests: 1,
    numFailedTests: 1,
    numPendingTests: 0,
    numRuntimeErrorTestSuites: 1,
    testResults: [
      {
        name: `${root}/tests/integration/a.test.ts`,
        status: 'failed',
        assertionResults: [
          assertion('a passes', 'passed'),
          assertion('a fails', 'failed', ['\x1b[31mError: expect(received).toBe(expected)\x1b[39m\n\nExpected: 1']),
        ],
      },
      {
        name: `${root}/tests/integration/b.test.ts`,
        status: 'failed',
        message: '  ● Test suite failed to run\n\n    boom',
        assertionResults: [],
      },
    ],
  });
  expect(lines[0]).toBe('jest: 1 passed, 2 failed');
  expect(lines).toContainEqual(
    expect.stringMatching(/^ {2}failed .*tests\/integration\/a\.test\.ts › a fails: Error: expect\(received\)\.toBe\(expected\)$/),
  );
  expect(lines).toContainEqual(expect.stringMatching(/^ {2}failed suite .*tests\/integration\/b\.test\.ts: boom$/));
});

it('prints no failure lines for a green report', () => {
  const lines = testLines({
    success: true,
    numPassedTests: 1,
    numFailedTests: 0,
    numPendingTests: 0,
    testResults: [{ name: `${root}/tests/unit/c.test.ts`, status: 'passed', assertionResults: [assertion('c', 'passed')] }],
  });
  expect(lines.filter((l) => l.startsWith('jest') || l.startsWith('  failed'))).toEqual(['jest: 1 passed, 0 failed']);
});

it('names each failure of the SDK suite, a multi-line one indented under its first line', () => {
  const green = { success: true, numPassedTests: 1, numFailedTests: 0, testResults: [] };
  const lines = testLines(green, {
    passed: 2,
    failed: 2,
    failures: [
      'quickstart --variant sdk (exit 1)',
      'http://127.0.0.1:1/readyz: process exited with 2 before it was ready; the log ends with:\n  bad setting',
    ],
  });
  const at = lines.indexOf('sdks: 2 passed, 2 failed');
  expect(lines.slice(at, at + 4)).toEqual([
    'sdks: 2 passed, 2 failed',
    '  failed quickstart --variant sdk (exit 1)',
    '  failed http://127.0.0.1:1/readyz: process exited with 2 before it was ready; the log ends with:',
    '      bad setting',
  ]);
});

it("prints a failed soak's diagnosis under the jest line, its first 80 lines", () => {
  const red = { success: false, numPassedTests: 1, numFailedTests: 1, testResults: [] };
  const diagnosis = ['1 violation(s):', '  payment pay_1 is unsettled', ...Array.from({ length: 100 }, (_, i) => `  line ${i}`)];
  const lines = testLines(red, { passed: 1, failed: 0 }, `${diagnosis.join('\n')}\n`);
  const at = lines.indexOf('  soak diagnosis (coverage/soak-diagnosis.txt):');
  expect(lines[at - 1]).toBe('jest: 1 passed, 1 failed');
  expect(lines.slice(at + 1, at + 3)).toEqual(['    1 violation(s):', '      payment pay_1 is unsettled']);
  expect(lines[at + 80]).toBe('      line 77');
  expect(lines[at + 81]).toBe('    … 22 more lines in coverage/soak-diagnosis.txt');
  expect(lines[at + 82]).toBe('sdks: 1 passed, 0 failed');
});
