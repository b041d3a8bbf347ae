#!/usr/bin/env node
// make sdk-packages: each version's generated SDKs as their users install them, in dist/sdk/<version>/:
//   - the TypeScript SDK packed by `npm pack` (paygate-sdk-<npm version>.tgz): its prepare script compiles it
//     (CommonJS and ESM JavaScript with declarations) with the project's pinned TypeScript;
//   - the Python SDK as a wheel (paygate_client-<version>-py3-none-any.whl): `pip wheel` with the setuptools
//     pinned in sdk-tests/requirements.txt (.venv/sdk), offline.
// Each is built from a copy of its generated folder (a build leaves nothing in generated/) and only when its
// key changed: a hash of the generated files, this script and the toolchain's versions, kept beside it. A
// built package is also kept in the tool cache (PAYGATE_CACHE) under its key, for the next fresh clone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheDir, files, hashOf, root, SDKS, VERSIONS } from './sdk-tree.mjs';

export const packagesDir = path.join(root, 'dist/sdk');
const python = path.join(root, '.venv/sdk/bin/python');
const typescriptVersion = () => JSON.parse(fs.readFileSync(path.join(root, 'node_modules/typescript/package.json'), 'utf8')).version;

/** Runs a command; its output is kept and thrown with the error when it fails. */
export function run(cmd, args, { cwd = root, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${path.basename(cmd)} ${args.join(' ')} (in ${cwd}) exited with ${code}:\n${output.trim()}`)),
    );
  });
}

const BUILDERS = {
  typescript: {
    toolchain: () => [`typescript ${typescriptVersion()}`, `node ${process.version}`],
    // npm runs the package's prepare (`tsc && tsc -p tsconfig.esm.json`) with the project's tsc on PATH.
    build: (src, out) =>
      run('npm', ['pack', '--pack-destination', out, '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: src,
        env: { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
      }),
    artifact: /\.tgz$/,
  },
  python: {
    toolchain: () => [
      fs.readFileSync(path.join(root, 'sdk-tests/requirements.txt'), 'utf8'),
      fs.readFileSync(path.join(root, '.venv/sdk/pyvenv.cfg'), 'utf8'),
    ],
    build: (src, out) =>
      run(python, [
        '-m',
        'pip',
        'wheel',
        '--quiet',
        '--disable-pip-version-check',
        '--no-deps',
        '--no-build-isolation',
        '--no-index',
        '-w',
        out,
        src,
      ]),
    artifact: /\.whl$/,
  },
};

/** One SDK of one version: its artifact's path, built unless the one there has the same key. */
export async function buildPackage(version, sdk) {
  const builder = BUILDERS[sdk];
  const src = path.join(root, 'generated', version, 'sdk', sdk);
  const out = path.join(packagesDir, version);
  const keyFile = path.join(out, `.${sdk}.key`);
  const key = hashOf([src, new URL(import.meta.url).pathname], ...builder.toolchain());
  const existing = () => (fs.existsSync(out) ? fs.readdirSync(out).filter((f) => builder.artifact.test(f)) : []);
  if (fs.existsSync(keyFile) && fs.readFileSync(keyFile, 'utf8') === key && existing().length === 1) return path.join(out, existing()[0]);

  fs.mkdirSync(out, { recursive: true });
  fs.rmSync(keyFile, { force: true });
  for (const f of existing()) fs.rmSync(path.join(out, f));
  const cached = cacheDir('sdk-packages') && path.join(cacheDir('sdk-packages'), key);
  const fromCache = cached && fs.existsSync(cached) ? fs.readdirSync(cached).filter((f) => builder.artifact.test(f)) : [];
  if (fromCache.length === 1) fs.copyFileSync(path.join(cached, fromCache[0]), path.join(out, fromCache[0]));
  else {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), `paygate-sdk-build-${sdk}-`));
    try {
      for (const f of files(src)) fs.cpSync(path.join(src, f), path.join(copy, f));
      await builder.build(copy, out);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  }
  const built = existing();
  if (built.length !== 1) throw new Error(`building the ${sdk} SDK of ${version} left ${built.length} artifacts in ${out}`);
  if (cached && fromCache.length !== 1) {
    fs.mkdirSync(`${cached}.tmp`, { recursive: true });
    fs.copyFileSync(path.join(out, built[0]), path.join(`${cached}.tmp`, built[0]));
    fs.rmSync(cached, { recursive: true, force: true });
    fs.renameSync(`${cached}.tmp`, cached);
  }
  fs.writeFileSync(keyFile, key);
  return path.join(out, built[0]);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const jobs = VERSIONS.flatMap((version) => SDKS.map((sdk) => ({ version, sdk, artifact: buildPackage(version, sdk) })));
  let failed = false;
  for (const { version, sdk, artifact } of jobs) {
    try {
      console.log(`${version} ${sdk}: ${path.relative(root, await artifact)}`);
    } catch (e) {
      failed = true;
      console.error(`${version} ${sdk}: ${e.message}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
