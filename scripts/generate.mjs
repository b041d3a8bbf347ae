#!/usr/bin/env node
// make generate: the preview's flat schema copies from base + overlay (scripts/preview-schemas.mjs), then
// spec/<version>/openapi.yaml -> generated/<version>/{openapi.json,types.ts}, and the internal documents,
// spec/internal/<name>.yaml -> generated/internal/<name>.{json,ts} (bundled and typed: no SDKs or docs).
// make check-generated (--check): fail if a flat copy differs from base + overlay; regenerate into a temporary folder
// and fail if generated/ differs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syncPreviewFiles } from './preview-schemas.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
// Documents the service validates requests against that are not API versions (spec/internal/hosted.yaml).
const INTERNAL = ['hosted'];
const check = process.argv.includes('--check');
// The bundles read the flat copies: checked (or written) first.
const stalePreviews = syncPreviewFiles(root, check);
if (check && stalePreviews.length) {
  console.error(`flat preview schemas differ from base + overlay (edit those, then make generate): ${stalePreviews.join(', ')}`);
  process.exit(1);
}

const outRoot = check ? fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-gen-')) : path.join(root, 'generated');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Bundles one root document to `bundled`, fenced with where it came from. */
function bundle(source, bundled, from) {
  execFileSync(bin('redocly'), ['bundle', source, '-o', bundled, '--ext', 'json'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const doc = JSON.parse(fs.readFileSync(bundled, 'utf8'));
  const fenced = { 'x-generated': `Generated from ${from} by \`make generate\`. Do not edit.`, ...doc };
  fs.writeFileSync(bundled, JSON.stringify(fenced, null, 2) + '\n');
}

/** The TypeScript types of a bundled document, next to it, fenced with where they came from. */
function typesOf(bundled, types, from) {
  // Run from the output folder: at the repo root openapi-typescript would read redocly.yaml's apis instead.
  execFileSync(bin('openapi-typescript'), [bundled, '-o', types, '--root-types'], {
    cwd: path.dirname(types),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const text = fs.readFileSync(types, 'utf8');
  fs.writeFileSync(types, `// Generated from ${from} by \`make generate\`. Do not edit.\n${text}`);
}

for (const name of INTERNAL) {
  fs.mkdirSync(path.join(outRoot, 'internal'), { recursive: true });
  const bundled = path.join(outRoot, 'internal', `${name}.json`);
  bundle(path.join(root, 'spec', 'internal', `${name}.yaml`), bundled, `spec/internal/${name}.yaml`);
  typesOf(bundled, path.join(outRoot, 'internal', `${name}.ts`), `spec/internal/${name}.yaml`);
}

for (const v of VERSIONS) {
  const dir = path.join(outRoot, v);
  fs.mkdirSync(dir, { recursive: true });
  const bundled = path.join(dir, 'openapi.json');
  bundle(path.join(root, 'spec', v, 'openapi.yaml'), bundled, `spec/${v}/`);
  typesOf(bundled, path.join(dir, 'types.ts'), `spec/${v}/`);
}

if (check) {
  let stale = [];
  const files = [
    ...VERSIONS.flatMap((v) => [`${v}/openapi.json`, `${v}/types.ts`]),
    ...INTERNAL.flatMap((n) => [`internal/${n}.json`, `internal/${n}.ts`]),
  ];
  for (const f of files) {
    const want = fs.readFileSync(path.join(outRoot, f), 'utf8');
    const have = fs.existsSync(path.join(root, 'generated', f)) ? fs.readFileSync(path.join(root, 'generated', f), 'utf8') : null;
    if (want !== have) stale.push(`generated/${f}`);
  }
  fs.rmSync(outRoot, { recursive: true, force: true });
  if (stale.length) {
    console.error(`generated/ is stale (run make generate): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log('generated/ is up to date');
}
