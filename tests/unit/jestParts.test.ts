// scripts/jest-parts.mjs: which integration files make test runs in process (each declares its part by its name),
// and the one report of its parts, in which every integration file ran exactly once (in process or through Prism).
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

const OWN = path.join(root, 'tests/integration/x.own.test.ts');

describe('mergeReports', () => {
  it('counts each test once, with the outcome of the part that ran its file', () => {
    const own = { name: 'own', code: 0, report: report([test('a', 'passed'), test('b', 'pending')], OWN) };
    const prism = { name: 'prism', code: 0, report: report([test('c', 'passed'), test('c', 'passed')]) };
    const r = call('mergeReports', [unit, own, prism]);
    expect(counts(r)).toEqual({ success: true, tests: [5, 4, 0, 1], suites: [3, 3, 0, 0] });
    expect(r.testResults.map((f: any) => [path.basename(f.name), f.assertionResults.map((t: any) => t.status)])).toEqual([
      ['a.test.ts', ['passed']],
      ['x.own.test.ts', ['passed', 'pending']],
      ['x.test.ts', ['passed', 'passed']],
    ]);
    expect(r.parts.map((p: any) => [p.name, p.passed, p.skipped])).toEqual([
      ['unit', 1, 0],
      ['own', 1, 1],
      ['prism', 2, 0],
    ]);
  });

  it('fails an integration file run by a part its name does not declare, or by two parts', () => {
    const own = { name: 'own', code: 0, report: report([test('plain', 'passed')]) };
    const prism = { name: 'prism', code: 0, report: report([test('plain', 'passed')]) };
    const twice = call('mergeReports', [own, prism]);
    expect(counts(twice)).toEqual({ success: false, tests: [2, 0, 2, 0], suites: [1, 0, 1, 0] });
    expect(twice.testResults[0].assertionResults[0].failureMessages[0]).toMatch(/^ran in own and prism; its name declares prism/);
    const wrong = call('mergeReports', [{ name: 'prism', code: 0, report: report([test('a', 'passed')], OWN) }]);
    expect(counts(wrong)).toEqual({ success: false, tests: [1, 0, 1, 0], suites: [1, 0, 1, 0] });
    expect(wrong.testResults[0].message).toMatch(/ran in prism; its name declares own/);
  });

  it('keeps a failure of either part, and counts a part without a report as a suite that could not run', () => {
    const own = { name: 'own', code: 1, report: report([test('a', 'failed'), test('b', 'passed')], OWN) };
    const prism = { name: 'prism', code: 0, report: report([test('c', 'passed')]) };
    expect(counts(call('mergeReports', [own, prism]))).toEqual({ success: false, tests: [3, 2, 1, 0], suites: [2, 1, 1, 0] });
    const crashed = { name: 'prism', code: 1, report: null };
    const r = call('mergeReports', [unit, { ...own, code: 0, report: report([test('a', 'passed')], OWN) }, crashed]);
    expect(counts(r)).toEqual({ success: false, tests: [2, 2, 0, 0], suites: [2, 2, 0, 1] });
  });
});

describe('the two parts of the integration suite', () => {
  const all = fs
    .readdirSync(path.join(root, 'tests/integration'))
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `tests/integration/${f}`);

  it('each file is in exactly one part, the one its name declares: *.own.test.ts in process, the rest through Prism', () => {
    const own: string[] = call('ownServiceFiles', root);
    const prism: string[] = call('prismFiles', root);
    expect(own).toEqual(expect.arrayContaining(['tests/integration/clock.own.test.ts', 'tests/integration/dbOutage.own.test.ts']));
    expect(prism).toEqual(expect.arrayContaining(['tests/integration/foundation.test.ts', 'tests/integration/x402.test.ts']));
    expect([...own, ...prism].sort()).toEqual(all.sort());
    for (const f of own) expect(f).toMatch(/\.own\.test\.ts$/);
    for (const f of prism) expect(f).not.toMatch(/\.own\.test\.ts$/);
  });

  it('no test skips itself against the external service (it would run in neither part)', () => {
    const ts = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? ts(p) : p.endsWith('.ts') ? [p] : [];
      });
    const adHoc = ts(path.join(root, 'tests'))
      .filter((f) => !f.endsWith(path.join('support', 'service.ts')))
      .filter((f) => /externalService\s*\?|if \(!?externalService\)|\.skip\(|\b(xit|xdescribe)\(/.test(fs.readFileSync(f, 'utf8')));
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
