// scripts/jest-parts.mjs: which integration files make test runs in process, and the one report of its parts,
// in which every integration test ran exactly once (in process or through Prism).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..', '..');

/** Calls an export of scripts/jest-parts.mjs (an ES module) with JSON arguments; its JSON result. */
function call(fn: 'mergeReports' | 'ownServiceFiles' | 'prismFiles' | 'faultFiles', ...args: unknown[]): any {
  const script = `import * as m from './scripts/jest-parts.mjs'; process.stdout.write(JSON.stringify(m.${fn}(...JSON.parse(process.argv[1]))));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script, JSON.stringify(args)], { cwd: root, encoding: 'utf8' }));
}

const FILE = path.join(root, 'tests/integration/x.test.ts');
const test = (fullName: string, status: string) => ({ fullName, title: fullName, ancestorTitles: [], status, failureMessages: [] });
const report = (tests: ReturnType<typeof test>[], name = FILE) => {
  const n = (s: string) => tests.filter((t) => t.status === s).length;
  return {
    success: n('failed') === 0,
    numPassedTests: n('passed'),
    numFailedTests: n('failed'),
    numPendingTests: n('pending'),
    numRuntimeErrorTestSuites: 0,
    startTime: 1,
    testResults: [{ name, status: n('failed') ? 'failed' : 'passed', message: '', startTime: 1, endTime: 2, assertionResults: tests }],
  };
};
const unit = { name: 'unit', code: 0, report: report([test('adds', 'passed')], path.join(root, 'tests/unit/a.test.ts')) };
const counts = (r: any) => ({
  success: r.success,
  tests: [r.numTotalTests, r.numPassedTests, r.numFailedTests, r.numPendingTests],
  suites: [r.numTotalTestSuites, r.numPassedTestSuites, r.numFailedTestSuites, r.numRuntimeErrorTestSuites],
});

describe('mergeReports', () => {
  it('counts each integration test once, with the outcome of the part that ran it', () => {
    const own = { name: 'own', code: 0, report: report([test('a [own service]', 'passed'), test('b', 'pending'), test('b', 'pending')]) };
    const prism = {
      name: 'prism',
      code: 0,
      report: report([test('a [own service]', 'pending'), test('b', 'passed'), test('b', 'passed')]),
    };
    const r = call('mergeReports', [unit, own, prism]);
    expect(counts(r)).toEqual({ success: true, tests: [4, 4, 0, 0], suites: [2, 2, 0, 0] });
    expect(r.testResults[1].assertionResults.map((t: any) => t.status)).toEqual(['passed', 'passed', 'passed']);
    expect(r.parts.map((p: any) => [p.name, p.passed, p.skipped])).toEqual([
      ['unit', 1, 0],
      ['own', 1, 2],
      ['prism', 2, 1],
    ]);
  });

  it('fails an integration test that ran in neither part, or in both', () => {
    const own = { name: 'own', code: 0, report: report([test('never', 'pending'), test('twice', 'passed')]) };
    const prism = { name: 'prism', code: 0, report: report([test('never', 'pending'), test('twice', 'passed')]) };
    const r = call('mergeReports', [own, prism]);
    expect(counts(r)).toEqual({ success: false, tests: [2, 0, 2, 0], suites: [1, 0, 1, 0] });
    expect(r.testResults[0].assertionResults.map((t: any) => t.failureMessages[0])).toEqual([
      expect.stringMatching(/^ran in 0 modes: .*\[own service\]/),
      expect.stringMatching(/^ran in 2 modes/),
    ]);
  });

  it('keeps a failure of either part, and counts a part without a report as a suite that could not run', () => {
    const own = { name: 'own', code: 1, report: report([test('a [own service]', 'failed'), test('b', 'pending')]) };
    const prism = { name: 'prism', code: 0, report: report([test('a [own service]', 'pending'), test('b', 'passed')]) };
    expect(counts(call('mergeReports', [own, prism]))).toEqual({ success: false, tests: [2, 1, 1, 0], suites: [1, 0, 1, 0] });
    const crashed = { name: 'prism', code: 1, report: null };
    const r = call('mergeReports', [
      unit,
      { ...own, code: 0, report: report([test('a [own service]', 'passed'), test('b', 'pending')]) },
      crashed,
    ]);
    expect(counts(r)).toEqual({ success: false, tests: [3, 2, 0, 1], suites: [2, 2, 0, 1] });
  });
});

describe('the two modes of the integration suite', () => {
  it('ownServiceFiles lists the files with tests tagged [own service], and only those', () => {
    const files: string[] = call('ownServiceFiles', root);
    expect(files).toEqual(expect.arrayContaining(['tests/integration/clock.test.ts', 'tests/integration/dbOutage.test.ts']));
    expect(files).not.toContain('tests/integration/foundation.test.ts');
    for (const f of fs.readdirSync(path.join(root, 'tests/integration')))
      expect({ f, own: files.includes(`tests/integration/${f}`) }).toEqual({
        f,
        own: /\b(describeOwn|itOwn)\(/.test(fs.readFileSync(path.join(root, 'tests/integration', f), 'utf8')),
      });
  });

  it('prismFiles leaves out only the files whose every test ran in process', () => {
    const clock = path.join(root, 'tests/integration/clock.test.ts');
    const x402 = path.join(root, 'tests/integration/x402.test.ts');
    const own = {
      testResults: [
        { name: clock, assertionResults: [test('a [own service]', 'passed'), test('b [own service]', 'failed')] },
        { name: x402, assertionResults: [test('a [own service]', 'passed'), test('b', 'pending')] },
      ],
    };
    const all = fs.readdirSync(path.join(root, 'tests/integration')).map((f) => `tests/integration/${f}`);
    expect(call('prismFiles', root, own)).toEqual(all.filter((f) => f !== 'tests/integration/clock.test.ts').sort());
    expect(call('prismFiles', root, null)).toEqual(all.sort());
  });

  it('no test skips against the external service but through describeOwn/itOwn (it would run in neither mode)', () => {
    const ts = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? ts(p) : p.endsWith('.ts') ? [p] : [];
      });
    const adHoc = ts(path.join(root, 'tests'))
      .filter((f) => !f.endsWith(path.join('support', 'service.ts')))
      .filter((f) => /externalService\s*\?|if \(externalService\)/.test(fs.readFileSync(f, 'utf8')));
    expect(adHoc).toEqual([]);
  });
});

describe('the fault suite', () => {
  it('faultFiles runs alone every scenario that measures latencies, and each scenario in exactly one part', () => {
    const { alone, together }: { alone: string[]; together: string[] } = call('faultFiles', root);
    expect(alone).toEqual(expect.arrayContaining(['tests/faults/flood.test.ts', 'tests/faults/webhookTarpit.test.ts']));
    expect(together).toContain('tests/faults/crash.test.ts');
    const all = fs.readdirSync(path.join(root, 'tests/faults')).filter((f) => f.endsWith('.test.ts'));
    expect([...alone, ...together].sort()).toEqual(all.map((f) => `tests/faults/${f}`).sort());
    for (const f of together)
      expect({ f, latency: /\blatency\(/.test(fs.readFileSync(path.join(root, f), 'utf8')) }).toEqual({ f, latency: false });
  });
});
