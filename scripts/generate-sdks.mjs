#!/usr/bin/env node
// make sdks: generated/<v>/openapi.json -> generated/<v>/sdk/{typescript,python} for every version, with
// openapi-generator (npm wrapper @openapitools/openapi-generator-cli; generators and the jar version in
// openapitools.json, run once for all versions: one generator per SDK and version, in parallel).
// make check-sdks (--check): generate into a temporary folder and fail if a generated/<v>/sdk differs. A
// passed check is remembered (.tools/sdk-check.json) by a hash of everything it read, inputs and the
// committed SDKs alike: the same hash again skips the generator, any change runs it.
// The jar comes from the tool cache (PAYGATE_CACHE), else Maven Central: the wrapper's own download, else
// `mvn dependency:copy`; either way its SHA-256 must match the pin below, so every machine generates with the
// same bytes. The tool cache also remembers passed checks by their hash, so a fresh clone of a checked tree
// skips the generator too.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, files, hashOf, root, SDKS, VERSIONS } from './sdk-tree.mjs';

const JAR_SHA256 = { '7.23.0': 'cb087e40001e31eb08ef6140dd5de10938dbeb89016a1fe0481eaa25cd569026' };
const BASE_VERSION = '0.1.0';
const check = process.argv.includes('--check');

const configFile = path.join(root, 'openapitools.json');
const config = JSON.parse(fs.readFileSync(configFile, 'utf8'))['generator-cli'];
const storage = path.join(root, config.storageDir);
const jar = path.join(storage, `${config.version}.jar`);
const wrapper = path.join(root, 'node_modules/.bin/openapi-generator-cli');
const checkStamp = path.join(root, '.tools/sdk-check.json');
// The wrapper finds openapitools.json through PWD (or --openapitools) and resolves storageDir against PWD.
const wrapperEnv = { ...process.env, PWD: root };

/**
 * The package versions of a version's SDKs. Stable: 0.1.0. A preview: a pre-release of it that names the
 * preview (npm 0.1.0-2026-02-19.preview, Python 0.1.0b20260219), so both SDKs of one package name can be
 * published side by side, and npm and pip install a preview only when it is asked for by its version.
 */
function packageVersions(version) {
  const preview = /^(\d{4})-(\d{2})-(\d{2})\.preview$/.exec(version);
  if (!preview) return { npm: BASE_VERSION, python: BASE_VERSION };
  return { npm: `${BASE_VERSION}-${version}`, python: `${BASE_VERSION}b${preview.slice(1).join('')}` };
}

/**
 * The generators' input: the bundled document with each `allOf` of plain object schemas merged into one
 * object schema (same instances valid). Why: openapi-generator 7.23 drops OpenAPI 3.1 nullability
 * (`type: [string, "null"]`) from properties it copies out of an `allOf` member, so e.g. the Python model
 * of MerchantWithSettlements refused `iconUrl: null`; its REF_AS_PARENT_IN_ALLOF normalizer instead emits
 * a Python parent model whose from_dict returns None. Merging ourselves sidesteps both.
 * And a schema `<Name>Preview`, which stands for `<Name>` in a preview (the versions' schemas share one folder
 * in spec/, so they need two names there), is generated as `<Name>`: code written against the stable SDK
 * then compiles and runs against the preview's, its superset, as the versioning policy promises.
 */
function generatorInput(version, dir) {
  const bundled = JSON.parse(fs.readFileSync(path.join(root, 'generated', version, 'openapi.json'), 'utf8'));
  const renames = {};
  for (const [name, schema] of Object.entries(bundled.components.schemas)) {
    const base = name.replace(/Preview$/, '');
    // When `<Name>` exists too (a deprecated alias path of the preview takes the stable body), the preview's
    // superset takes its place: the SDK has one type for both operations.
    if (base === name) continue;
    renames[`#/components/schemas/${name}`] = `#/components/schemas/${base}`;
    bundled.components.schemas[base] = schema.title === name ? { ...schema, title: base } : schema;
    delete bundled.components.schemas[name];
  }
  const doc = JSON.parse(JSON.stringify(bundled, (k, v) => (k === '$ref' && renames[v]) || v));
  const schemas = doc.components.schemas;
  const resolve = (s) => (s.$ref?.startsWith('#/components/schemas/') ? schemas[s.$ref.split('/').pop()] : s);
  const plainObject = (s) =>
    s && s.type === 'object' && Object.keys(s).every((k) => ['type', 'properties', 'required', 'title', 'description'].includes(k));
  for (const [name, schema] of Object.entries(schemas)) {
    if (!schema.allOf) continue;
    const parts = schema.allOf.map(resolve);
    if (!parts.every(plainObject) || Object.keys(schema).some((k) => !['allOf', 'title', 'description'].includes(k))) continue;
    schemas[name] = {
      ...(schema.title ? { title: schema.title } : {}),
      ...(schema.description ? { description: schema.description } : {}),
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
  const file = path.join(dir, `openapi.${version}.generator-input.json`);
  fs.writeFileSync(file, JSON.stringify(doc, null, 2));
  return file;
}

/**
 * openapitools.json with its generators repeated per version (`typescript@2026-02-18`, …): their
 * `${env.PAYGATE_SDK_*}` placeholders filled with that version's input, output folder and package versions.
 */
function versionedConfig(dir, outDir) {
  const raw = JSON.parse(fs.readFileSync(configFile, 'utf8'));
  const generators = {};
  for (const version of VERSIONS) {
    const { npm, python } = packageVersions(version);
    const values = {
      PAYGATE_SDK_SPEC: generatorInput(version, dir),
      PAYGATE_SDK_OUT: outDir(version),
      PAYGATE_SDK_NPM_VERSION: npm,
      PAYGATE_SDK_PY_VERSION: python,
    };
    for (const [sdk, generator] of Object.entries(raw['generator-cli'].generators)) {
      generators[`${sdk}@${version}`] = JSON.parse(
        JSON.stringify(generator, (k, v) => (typeof v === 'string' ? v.replace(/\$\{env\.(\w+)\}/g, (m, name) => values[name] ?? m) : v)),
      );
    }
  }
  const file = path.join(dir, 'openapitools.json');
  fs.writeFileSync(file, JSON.stringify({ ...raw, 'generator-cli': { ...raw['generator-cli'], generators } }, null, 2));
  return file;
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

function ensureJar() {
  const cached = cacheDir('openapi-generator') && path.join(cacheDir('openapi-generator'), `${config.version}.jar`);
  if (!fs.existsSync(jar) && cached && fs.existsSync(cached)) {
    fs.mkdirSync(storage, { recursive: true });
    fs.copyFileSync(cached, jar);
  }
  if (!fs.existsSync(jar)) {
    try {
      execFileSync(wrapper, ['version'], { cwd: root, env: wrapperEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      /* fall back to Maven below */
    }
  }
  if (!fs.existsSync(jar)) {
    console.error(`openapi-generator ${config.version}: the wrapper's download failed, fetching it with Maven`);
    execFileSync(
      'mvn',
      ['-q', 'dependency:copy', `-Dartifact=org.openapitools:openapi-generator-cli:${config.version}`, `-DoutputDirectory=${storage}`],
      { cwd: root, stdio: 'inherit' },
    );
    fs.renameSync(path.join(storage, `openapi-generator-cli-${config.version}.jar`), jar);
  }
  const want = JAR_SHA256[config.version];
  const have = sha256(jar);
  if (have !== want) {
    fs.rmSync(jar);
    throw new Error(
      `openapi-generator ${config.version} jar has SHA-256 ${have}, expected ${want ?? '(no pin: add one to scripts/generate-sdks.mjs)'}`,
    );
  }
  if (cached && !fs.existsSync(cached)) {
    fs.copyFileSync(jar, `${cached}.tmp`);
    fs.renameSync(`${cached}.tmp`, cached);
  }
}

/** Every version's SDKs into outDir(version)/<sdk>. */
function generate(outDir) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-sdk-input-'));
  for (const version of VERSIONS) {
    for (const sdk of SDKS) {
      const dir = path.join(outDir(version), sdk);
      fs.rmSync(dir, { recursive: true, force: true }); // the generator never deletes files of removed operations
      fs.mkdirSync(dir, { recursive: true });
      // openapi-generator ignores --ignore-file-override (OpenAPITools/openapi-generator#5723); an ignore
      // file already in the output folder is honoured and kept.
      fs.copyFileSync(path.join(root, 'sdk-config', `${sdk}.ignore`), path.join(dir, '.openapi-generator-ignore'));
    }
  }
  try {
    const versioned = versionedConfig(work, outDir);
    execFileSync(wrapper, ['--openapitools', versioned, 'generate'], {
      cwd: root,
      env: wrapperEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 64 << 20,
    });
  } catch (e) {
    process.stderr.write(e.stdout ?? '');
    process.stderr.write(e.stderr ?? '');
    throw new Error('openapi-generator failed', { cause: e });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  for (const version of VERSIONS) {
    for (const sdk of SDKS) {
      const readme = path.join(outDir(version), sdk, 'README.md');
      const note =
        `> Generated from \`spec/${version}/\` by \`make sdks\` (openapi-generator ${config.version}). ` +
        'Do not edit: change the spec, then run `make generate sdks`.\n\n';
      fs.writeFileSync(readme, note + fs.readFileSync(readme, 'utf8'));
    }
  }
}

/** The hash of a check's inputs and of the committed SDKs it compared: equal hashes, equal verdicts. */
function checkKey() {
  const wrapperVersion = JSON.parse(
    fs.readFileSync(path.join(root, 'node_modules/@openapitools/openapi-generator-cli/package.json'), 'utf8'),
  ).version;
  const ignores = SDKS.map((sdk) => path.join(root, 'sdk-config', `${sdk}.ignore`));
  const perVersion = VERSIONS.flatMap((v) =>
    [path.join(root, 'generated', v, 'openapi.json'), path.join(root, 'generated', v, 'sdk')].filter((p) => fs.existsSync(p)),
  );
  return hashOf(
    [new URL(import.meta.url).pathname, path.join(root, 'scripts/sdk-tree.mjs'), configFile, ...ignores, ...perVersion],
    wrapperVersion,
    ...VERSIONS,
  );
}

const rememberCheck = () => {
  fs.mkdirSync(path.dirname(checkStamp), { recursive: true });
  fs.writeFileSync(checkStamp, JSON.stringify({ key: checkKey() }) + '\n');
  const checked = cacheDir('sdk-checks');
  if (checked) fs.writeFileSync(path.join(checked, checkKey()), '');
};
const checkedBefore = () =>
  (fs.existsSync(checkStamp) && JSON.parse(fs.readFileSync(checkStamp, 'utf8')).key === checkKey()) ||
  (cacheDir('sdk-checks') !== undefined && fs.existsSync(path.join(cacheDir('sdk-checks'), checkKey())));
const sdkDirs = `generated/{${VERSIONS.join(',')}}/sdk`;

if (!check) {
  ensureJar();
  generate((version) => path.join(root, 'generated', version, 'sdk'));
  rememberCheck();
  console.log(`${sdkDirs}/{${SDKS.join(',')}} written`);
} else if (checkedBefore()) {
  console.log(`${sdkDirs} up to date (checked before with the same inputs and files)`);
} else {
  ensureJar();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-sdk-'));
  try {
    generate((version) => path.join(tmp, version));
    const stale = new Set();
    for (const version of VERSIONS) {
      for (const sdk of SDKS) {
        const fresh = path.join(tmp, version, sdk);
        const committed = path.join(root, 'generated', version, 'sdk', sdk);
        for (const f of new Set([...files(fresh), ...files(committed)])) {
          const a = path.join(fresh, f);
          const b = path.join(committed, f);
          if (!fs.existsSync(a) || !fs.existsSync(b) || !fs.readFileSync(a).equals(fs.readFileSync(b)))
            stale.add(`generated/${version}/sdk/${sdk}/${f}`);
        }
      }
    }
    if (stale.size) {
      console.error(
        `generated SDKs are stale (run make sdks): ${[...stale].slice(0, 10).join(', ')}${stale.size > 10 ? `, … (${stale.size} files)` : ''}`,
      );
      process.exit(1);
    }
    rememberCheck();
    console.log(`${sdkDirs} up to date`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
