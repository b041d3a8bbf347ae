#!/usr/bin/env node
// make docs (and every build): generated/<version>/openapi.json -> dist/docs/<version>.html, one rendered
// API reference per version (Redocly build-docs, pinned in devDependencies). --inlineBundle puts Redoc's
// own JavaScript into the page instead of a CDN link, so the docs work on a machine without internet.
// Deterministic: the same bundle gives the same bytes. Skips a version whose page is newer than its bundle.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
const outDir = path.join(root, 'dist', 'docs');
const force = process.argv.includes('--force');
fs.mkdirSync(outDir, { recursive: true });

// The getting-started's example settlement and payment, as the spec writes them (the hosted service's USDC on
// Base): the page holds a placeholder for each, which the serving instance fills with an asset it serves itself
// (src/http/docsExamples.ts), so that its examples can be paid there. Each must be found where it is written: a
// spec that words them otherwise fails the build instead of serving an example nobody can pay.
const EXAMPLES = [
  { placeholder: '@@EXAMPLE_ASSET@@', written: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  { placeholder: '@@EXAMPLE_CHAIN@@', written: 'eip155:8453', before: ':0x…' },
  { placeholder: '@@EXAMPLE_ASSET_LABEL@@', written: 'USDC on Base' },
  { placeholder: '@@EXAMPLE_CURRENCY@@', written: 'USD', before: ' 10.00' },
  { placeholder: '@@EXAMPLE_CURRENCY@@', written: 'USD', after: 'iso4217/' },
];

/** info.description with the placeholders in its "Getting started" section. */
function templated(description) {
  const from = description.indexOf('## Getting started');
  const to = description.indexOf('\n## ', from + 1);
  if (from < 0 || to < 0) throw new Error('info.description has no "## Getting started" section');
  let section = description.slice(from, to);
  for (const { placeholder, written, before = '', after = '' } of EXAMPLES) {
    const whole = after + written + before;
    if (!section.includes(whole)) throw new Error(`getting started: "${whole}" is not where scripts/build-docs.mjs expects it`);
    section = section.split(whole).join(after + placeholder + before);
  }
  return description.slice(0, from) + section + description.slice(to);
}

// What the placeholders stand for in the spec: the page of an instance that serves no asset shows these.
fs.writeFileSync(
  path.join(outDir, 'examples.json'),
  JSON.stringify(Object.fromEntries(EXAMPLES.map((e) => [e.placeholder, e.written])), null, 2) + '\n',
);

for (const v of VERSIONS) {
  const src = path.join(root, 'generated', v, 'openapi.json');
  const out = path.join(outDir, `${v}.html`);
  const self = fileURLToPath(import.meta.url);
  const newest = Math.max(fs.statSync(src).mtimeMs, fs.statSync(self).mtimeMs);
  if (!force && fs.existsSync(out) && fs.statSync(out).mtimeMs >= newest) continue;
  const tmp = `${out}.tmp`;
  const doc = JSON.parse(fs.readFileSync(src, 'utf8'));
  doc.info.description = templated(doc.info.description);
  const input = `${out}.openapi.json`;
  fs.writeFileSync(input, JSON.stringify(doc));
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'redocly'),
    ['build-docs', input, '-o', tmp, '--inlineBundle', '--title', `paygate API ${v}`, '--lint-config', 'off'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  fs.rmSync(input);
  const html = fs.readFileSync(tmp, 'utf8');
  // The service serves these pages offline; a CDN reference would be a page that renders nothing.
  if (/<(script|link)[^>]+(src|href)="https?:/i.test(html))
    throw new Error(`${out}: the page loads a script or stylesheet from the network`);
  for (const { placeholder } of EXAMPLES)
    if (!html.includes(placeholder)) throw new Error(`${out}: the rendered page lost the placeholder ${placeholder}`);
  fs.renameSync(tmp, out);
  console.log(`docs: dist/docs/${v}.html`);
}
