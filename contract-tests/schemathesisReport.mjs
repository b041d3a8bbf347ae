// What a Schemathesis run left in its report folder (contract-tests/run.mjs): the counts of its JSON report and
// the start of each failing case of its JUnit report.
import fs from 'node:fs';
import path from 'node:path';

/** The counts and failure kinds of a run's JSON report (`checks`: what `--checks all` means, for the summary), or null. */
export function readJsonReport(dir, checks) {
  try {
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const r = JSON.parse(text);
    r.seed = /"seed":\s*(\d+)/.exec(text)?.[1] ?? r.seed; // too big for a JS number
    const cases = r.test_cases?.generated ?? '?';
    const failures = Array.isArray(r.failures) ? r.failures.length : r.failures;
    const engineErrors = Array.isArray(r.errors) ? r.errors.length : 0;
    return {
      failures,
      // Cases with a failure (at least one per unique failure) or an error, and the engine's own errors.
      failedCases: Math.max((r.test_cases?.with_failures ?? 0) + (r.test_cases?.errored ?? 0), Number(failures) || 0),
      engineErrors,
      // Each kind of failure, with its check code and operations.
      failureGroups: (Array.isArray(r.failures) ? r.failures : []).map(
        (f) => `${f.code ?? '?'} ${f.title ?? f.type ?? 'failure'} ×${f.count ?? 1}: ${(f.operations ?? []).join(', ') || 'the run'}`,
      ),
      // Operations that answered (almost) only 404: the gate's hooks and links should reach every one with real data.
      missingData: r.warnings?.missing_test_data?.length ? `missing test data (only 404s): ${r.warnings.missing_test_data.join(', ')}` : '',
      // Engine errors plus cases that could not be run: neither may hide an untested operation.
      errors: engineErrors + (r.test_cases?.errored ?? 0),
      cases,
      seed: r.seed,
      checks: `checks: all (${checks})`,
    };
  } catch {
    return null;
  }
}

/** The first lines of each failing case in a run's JUnit report (failure texts are XML-escaped). */
export function failureTexts(dir, maxLines = 14) {
  try {
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.xml'));
    const xml = fs.readFileSync(path.join(dir, file), 'utf8');
    const unescape = (t) =>
      t
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&#10;/g, '\n')
        .replace(/&amp;/g, '&');
    const out = [];
    // Test cases with a body (a self-closing <testcase .../> passed).
    for (const m of xml.matchAll(/<testcase\b([^>]*[^/])>([\s\S]*?)<\/testcase>/g)) {
      const name = /name="([^"]*)"/.exec(m[1])?.[1] ?? '?';
      for (const f of m[2].matchAll(/<(failure|error)[^>]*>([\s\S]*?)<\/\1>/g)) {
        const lines = unescape(f[2])
          .split('\n')
          .filter((l) => l.trim());
        out.push(`${unescape(name)} (${f[1]}):`, ...lines.slice(0, maxLines).map((l) => `    ${l.slice(0, 300)}`));
      }
    }
    return out.slice(0, 60);
  } catch {
    return [];
  }
}
