// The type-check of the quickstart against an installed SDK package (sdk-tests/installed.mjs), run only when its
// inputs changed since one passed: `tsc --listFiles` names every file the program read; the tool cache
// (PAYGATE_CACHE, scripts/tool-cache.sh) keeps, under a key of the configuration, those files' hashes. A later
// check whose key and files all hash the same would read the same bytes: it passes without running tsc again.
// The key covers what decides which files the program reads: TypeScript's version, the tsconfig (the install
// folder's and the clone's paths left out, so a fresh clone finds it), the config files it extends and the pins
// of node_modules (given by the caller). Without the tool cache tsc always runs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../scripts/sdk-packages.mjs';
import { cacheDir, hashOf, root } from '../scripts/sdk-tree.mjs';

const tsc = path.join(root, 'node_modules/.bin/tsc');
const INSTALL = '<install>';
const hashFile = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A program file's name in the record: relative to the install folder or the project, which both move. */
function nameOf(file, dir) {
  if (!path.relative(dir, file).startsWith('..')) return path.join(INSTALL, path.relative(dir, file));
  return path.relative(root, file).startsWith('..') ? file : path.relative(root, file);
}
const fileOf = (name, dir) =>
  name.startsWith(`${INSTALL}${path.sep}`) ? path.join(dir, name.slice(INSTALL.length)) : path.resolve(root, name);

/**
 * `tsc -p tsconfig` of a program installed in dir, unless one with the same key and files passed: 'ran' or
 * 'kept'. keyFiles: the files besides tsconfig that decide the program's files (extended configs, lock files);
 * keyTexts: anything else that does (the listing of a folder the tsconfig includes by a pattern).
 */
export async function typecheck(tsconfig, dir, keyFiles, keyTexts) {
  const typescript = fs.readFileSync(path.join(root, 'node_modules/typescript/package.json'), 'utf8');
  const config = fs.readFileSync(tsconfig, 'utf8').replaceAll(dir, INSTALL).replaceAll(root, '<project>');
  const key = hashOf([...keyFiles, new URL(import.meta.url).pathname], JSON.parse(typescript).version, config, ...keyTexts);
  const cache = cacheDir('sdk-typecheck');
  const record = cache && path.join(cache, `${key}.json`);
  if (record && fs.existsSync(record)) {
    const files = JSON.parse(fs.readFileSync(record, 'utf8'));
    const same = ([name, hash]) => fs.existsSync(fileOf(name, dir)) && hashFile(fileOf(name, dir)) === hash;
    if (files.length > 0 && files.every(same)) return 'kept';
  }
  const isFile = (line) => path.isAbsolute(line) && fs.existsSync(line);
  // A failed check's error: tsc's messages, without the list of files.
  const errorsOnly = (e) =>
    new Error(
      e.message
        .split('\n')
        .filter((line) => !isFile(line))
        .join('\n'),
    );
  const listed = await run(tsc, ['-p', tsconfig, '--listFiles']).catch((e) => Promise.reject(errorsOnly(e)));
  if (record) {
    const files = listed
      .split('\n')
      .filter(isFile)
      .map((file) => [nameOf(file, dir), hashFile(file)]);
    fs.writeFileSync(`${record}.${process.pid}`, JSON.stringify(files));
    fs.renameSync(`${record}.${process.pid}`, record);
  }
  return 'ran';
}
