// The generated SDKs as files: what `make check-sdks` compares and what keys its cache and the SDK packages'.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const VERSIONS = ['2026-02-18', '2026-02-19.preview'];
export const SDKS = ['typescript', 'python'];

// What a local build leaves beside the generated files (git-ignored): not part of the generated tree.
const BUILD_OUTPUT = /(^|\/)(dist|node_modules|build|__pycache__|[^/]+\.egg-info)(\/|$)/;

/** Every generated file under dir, relative, sorted. */
export function files(dir, rel = '') {
  if (!fs.existsSync(path.join(dir, rel))) return [];
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(rel, e.name);
      if (BUILD_OUTPUT.test(p)) return [];
      return e.isDirectory() ? files(dir, p) : [p];
    })
    .sort();
}

/** The per-user tool cache (PAYGATE_CACHE, set by the Makefile; scripts/tool-cache.sh): a folder in it, made
 * if missing, or undefined when the variable is not set (then nothing is cached outside the clone). */
export function cacheDir(name) {
  if (!process.env.PAYGATE_CACHE) return undefined;
  const dir = path.join(process.env.PAYGATE_CACHE, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** SHA-256 over files and folders (each generated file's path and bytes) and a few strings. */
export function hashOf(paths, ...texts) {
  const h = crypto.createHash('sha256');
  for (const t of texts) h.update(`${t}\0`);
  for (const p of paths) {
    const fileList = fs.statSync(p).isDirectory() ? files(p).map((f) => path.join(p, f)) : [p];
    for (const f of fileList) h.update(`${path.relative(root, f)}\0`).update(fs.readFileSync(f));
  }
  return h.digest('hex');
}
