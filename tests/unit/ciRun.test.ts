// .ci/run's closing line, with `make` replaced by a stand-in that writes the reports each step would write.
// The script is copied into a temporary directory, so the repository's own reports are never touched.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.join(__dirname, '..', '..');

/** Runs a copy of .ci/run with a fake `make` whose steps exit with the given codes; returns stdout and exit code. */
function runCi(codes: { test: number; contract: number }): { out: string; code: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ci-run-'));
  fs.cpSync(path.join(repo, '.ci'), path.join(dir, '.ci'), { recursive: true });
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  const jest = JSON.stringify({ numPassedTests: 3, numFailedTests: 0, numRuntimeErrorTestSuites: 0, success: true });
  const contract = JSON.stringify({ passed: 7, failed: 0, parts: [{ name: 'schemathesis x', unit: 'cases', passed: 7, failed: 0 }] });
  fs.writeFileSync(
    path.join(bin, 'make'),
    `#!/usr/bin/env bash
set -e
# Each step runs one recipe line through the SHELL .ci/run gives make (.ci/timed-shell), as make would.
for a in "$@"; do case $a in SHELL=*) "\${a#SHELL=}" -c 'echo recipe line' ;; esac; done
case "$1" in
  test)
    mkdir -p coverage sdk-tests/reports
    echo '${jest}' > coverage/jest-results.json
    echo '${jest}' > coverage/browser-results.json
    echo '{"passed":2,"failed":0}' > sdk-tests/reports/counts.json
    exit ${codes.test} ;;
  contract)
    mkdir -p contract-tests/reports
    echo '${contract}' > contract-tests/reports/counts.json
    exit ${codes.contract} ;;
esac
exit 2
`,
    { mode: 0o755 },
  );
  try {
    const out = execFileSync('bash', [path.join(dir, '.ci', 'run')], {
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    return { out, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; status: number };
    return { out: err.stdout, code: err.status };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const closing = (out: string) => out.trim().split('\n').at(-1);

describe('.ci/run closing line', () => {
  it('counts both steps and exits 0 when everything passed', () => {
    const { out, code } = runCi({ test: 0, contract: 0 });
    // jest 3 + sdks 2 + browser 3 + contract 7
    expect(closing(out)).toBe('ci: 15 passed, 0 failed');
    expect(code).toBe(0);
  });

  it("prints each step's recipe lines and wall and CPU times, and the total before the closing line", () => {
    const { out } = runCi({ test: 0, contract: 0 });
    const lines = out.trim().split('\n');
    for (const step of ['test', 'contract']) {
      expect(lines).toContain(`time ${step} | 1 shorter lines: wall 0 s, cpu 0 s`);
      expect(lines.find((l) => l.startsWith(`time ${step}: `))).toMatch(/^time \w+: wall \d+ s, cpu \d+ s \(cpu: user \+ sys/);
    }
    expect(lines.at(-2)).toMatch(/^time ci: wall \d+ s, cpu \d+ s \(both steps\)$/);
  });

  it('counts a contract step that exits non-zero with no failed test as a failure', () => {
    const { out, code } = runCi({ test: 0, contract: 1 });
    expect(closing(out)).toBe('ci: 15 passed, 1 failed');
    expect(code).toBe(1);
  });

  it('does not run the contract step when make test failed, and counts it as not run', () => {
    const { out, code } = runCi({ test: 2, contract: 0 });
    expect(out).not.toContain('schemathesis x');
    expect(closing(out)).toBe('ci: 8 passed, 2 failed');
    expect(code).toBe(1);
  });
});
