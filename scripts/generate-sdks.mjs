#!/usr/bin/env node
// make sdks: generated/<v>/openapi.json -> generated/<v>/sdk/{typescript,python} with openapi-generator
// (npm wrapper @openapitools/openapi-generator-cli; generators and the jar version in openapitools.json).
// make check-sdks (--check): generate into a temporary folder and fail if generated/<v>/sdk differs.
// The jar comes from Maven Central: the wrapper's own download, else `mvn dependency:copy`; either way
// its SHA-256 must match the pin below, so every machine generates with the same bytes.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const VERSION = '2026-02-18'; // SDKs are published for the stable version only
const SDKS = ['typescript', 'python'];
const JAR_SHA256 = { '7.23.0': 'cb087e40001e31eb08ef6140dd5de10938dbeb89016a1fe0481eaa25cd569026' };
const check = process.argv.includes('--check');

const config = JSON.parse(fs.readFileSync(path.join(root, 'openapitools.json'), 'utf8'))['generator-cli'];
const storage = path.join(root, config.storageDir);
const jar = path.join(storage, `${config.version}.jar`);
const wrapper = path.join(root, 'node_modules/.bin/openapi-generator-cli');
// The wrapper finds openapitools.json through PWD; the generators read their paths from these variables.
const wrapperEnv = (out, spec = '') => ({ ...process.env, PWD: root, PAYGATE_SDK_SPEC: spec, PAYGATE_SDK_OUT: out });

/**
 * The generators' input: the bundled document with each `allOf` of plain object schemas merged into one
 * object schema (same instances valid). Why: openapi-generator 7.23 drops OpenAPI 3.1 nullability
 * (`type: [string, "null"]`) from properties it copies out of an `allOf` member, so e.g. the Python model
 * of MerchantWithSettlements refused `iconUrl: null`; its REF_AS_PARENT_IN_ALLOF normalizer instead emits
 * a Python parent model whose from_dict returns None. Merging ourselves sidesteps both.
 */
function generatorInput(dir) {
  const doc = JSON.parse(fs.readFileSync(path.join(root, 'generated', VERSION, 'openapi.json'), 'utf8'));
  const schemas = doc.components.schemas;
  const resolve = (s) => (s.$ref?.startsWith('#/components/schemas/') ? schemas[s.$ref.split('/').pop()] : s);
  const plainObject = (s) => s && s.type === 'object' && Object.keys(s).every((k) => ['type', 'properties', 'required', 'title', 'description'].includes(k));
  for (const [name, schema] of Object.entries(schemas)) {
    if (!schema.allOf) continue;
    const parts = schema.allOf.map(resolve);
    if (!parts.every(plainObject) || Object.keys(schema).some((k) => !['allOf', 'title', 'description'].includes(k))) continue;
    schemas[name] = {
      ...(schema.title ? { title: schema.title } : {}), ...(schema.description ? { description: schema.description } : {}),
      type: 'object',
      required: [...new Set(parts.flatMap((p) => p.required ?? []))],
      properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    };
  }
  // Links whose requestBody is an object of runtime expressions (OpenAPI 3.1 allows any value; the contract
  // gate's stateful phase follows them) fail openapi-generator's validator, which expects a string. Links shape
  // no generated code, so the generator's input has none.
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) for (const res of Object.values(op?.responses ?? {})) delete res.links;
  }
  const file = path.join(dir, 'openapi.generator-input.json');
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function ensureJar() {
  if (!fs.existsSync(jar)) {
    try {
      execFileSync(wrapper, ['version'], { cwd: root, env: wrapperEnv(''), stdio: ['ignore', 'ignore', 'inherit'] });
    } catch { /* fall back to Maven below */ }
  }
  if (!fs.existsSync(jar)) {
    console.error(`openapi-generator ${config.version}: the wrapper's download failed, fetching it with Maven`);
    execFileSync('mvn', ['-q', 'dependency:copy', `-Dartifact=org.openapitools:openapi-generator-cli:${config.version}`, `-DoutputDirectory=${storage}`],
      { cwd: root, stdio: 'inherit' });
    fs.renameSync(path.join(storage, `openapi-generator-cli-${config.version}.jar`), jar);
  }
  const want = JAR_SHA256[config.version];
  const have = sha256(jar);
  if (have !== want) {
    fs.rmSync(jar);
    throw new Error(`openapi-generator ${config.version} jar has SHA-256 ${have}, expected ${want ?? '(no pin: add one to scripts/generate-sdks.mjs)'}`);
  }
}

function generate(outRoot) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-sdk-input-'));
  const spec = generatorInput(work);
  for (const sdk of SDKS) {
    const dir = path.join(outRoot, sdk);
    fs.rmSync(dir, { recursive: true, force: true }); // the generator never deletes files of removed operations
    fs.mkdirSync(dir, { recursive: true });
    // openapi-generator ignores --ignore-file-override (OpenAPITools/openapi-generator#5723); an ignore
    // file already in the output folder is honoured and kept.
    fs.copyFileSync(path.join(root, 'sdk-config', `${sdk}.ignore`), path.join(dir, '.openapi-generator-ignore'));
  }
  try {
    execFileSync(wrapper, ['generate'], { cwd: root, env: wrapperEnv(outRoot, spec), stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (e) {
    process.stderr.write(e.stdout ?? '');
    process.stderr.write(e.stderr ?? '');
    throw new Error('openapi-generator failed');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  for (const sdk of SDKS) {
    const readme = path.join(outRoot, sdk, 'README.md');
    const note = `> Generated from \`spec/${VERSION}/\` by \`make sdks\` (openapi-generator ${config.version}). ` +
      'Do not edit: change the spec, then run `make generate sdks`.\n\n';
    fs.writeFileSync(readme, note + fs.readFileSync(readme, 'utf8'));
  }
}

/** Every file under dir, relative, sorted. */
function files(dir, rel = '') {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = path.join(rel, e.name);
    return e.isDirectory() ? files(dir, p) : [p];
  }).sort();
}

ensureJar();
const target = path.join(root, 'generated', VERSION, 'sdk');
if (!check) {
  generate(target);
  console.log(`generated/${VERSION}/sdk/{${SDKS.join(',')}} written`);
} else {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-sdk-'));
  try {
    generate(tmp);
    const stale = new Set();
    for (const sdk of SDKS) {
      const want = files(path.join(tmp, sdk));
      // dist/ and node_modules/ of a local build are git-ignored, not part of the generated tree.
      const have = files(path.join(target, sdk)).filter((f) => !/^(dist|node_modules)\//.test(f) && !f.includes('__pycache__'));
      for (const f of new Set([...want, ...have])) {
        const a = path.join(tmp, sdk, f);
        const b = path.join(target, sdk, f);
        if (!fs.existsSync(a) || !fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b))) stale.add(`generated/${VERSION}/sdk/${sdk}/${f}`);
      }
    }
    if (stale.size) {
      console.error(`generated SDKs are stale (run make sdks): ${[...stale].slice(0, 10).join(', ')}${stale.size > 10 ? `, … (${stale.size} files)` : ''}`);
      process.exit(1);
    }
    console.log(`generated/${VERSION}/sdk is up to date`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
