#!/usr/bin/env node
// make docs (and every build): generated/<version>/openapi.json -> dist/docs/<version>.html, one rendered
// API reference per version (Redocly build-docs, pinned in devDependencies). --inlineBundle puts Redoc's
// own JavaScript into the page instead of a CDN link, so the docs work on a machine without internet.
// Deterministic: the same bundle gives the same bytes. Skips a version whose page is newer than its bundle.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
const outDir = path.join(root, 'dist', 'docs');
const force = process.argv.includes('--force');
fs.mkdirSync(outDir, { recursive: true });

for (const v of VERSIONS) {
  const src = path.join(root, 'generated', v, 'openapi.json');
  const out = path.join(outDir, `${v}.html`);
  if (!force && fs.existsSync(out) && fs.statSync(out).mtimeMs >= fs.statSync(src).mtimeMs) continue;
  const tmp = `${out}.tmp`;
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'redocly'),
    ['build-docs', src, '-o', tmp, '--inlineBundle', '--title', `paygate API ${v}`, '--lint-config', 'off'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  const html = fs.readFileSync(tmp, 'utf8');
  // The service serves these pages offline; a CDN reference would be a page that renders nothing.
  if (/<(script|link)[^>]+(src|href)="https?:/i.test(html))
    throw new Error(`${out}: the page loads a script or stylesheet from the network`);
  fs.renameSync(tmp, out);
  console.log(`docs: dist/docs/${v}.html`);
}
