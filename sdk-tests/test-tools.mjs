// The Python side of the installed wheels' payments (sdk-tests/installed.mjs): `pip install` into a virtualenv
// from .venv/sdk-wheels (offline, the pins of sdk-tests/requirements.txt), and the test tools those payments run
// on (pytest, eth-account), installed and byte-compiled once per pins into the tool cache (PAYGATE_CACHE,
// scripts/tool-cache.sh). A fresh virtualenv gets them as hard links (a copy across file systems); pip then
// resolves and installs only what the wheel needs besides, so a dependency the wheel does not declare is still
// missing there. Without the tool cache pip installs the tools into each virtualenv.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { run } from '../scripts/sdk-packages.mjs';
import { cacheDir, hashOf, root } from '../scripts/sdk-tree.mjs';

export const TEST_TOOLS = ['pytest', 'eth-account'];
const requirements = path.join(root, 'sdk-tests/requirements.txt');

/** The site-packages folder of a virtualenv. */
const sitePackages = (venv) => {
  const lib = path.join(venv, 'lib');
  return path.join(
    lib,
    fs.readdirSync(lib).find((d) => d.startsWith('python')),
    'site-packages',
  );
};

/** `pip install` (.venv/sdk's pip, which the virtualenvs, made without one, lack) into the virtualenv of python. */
export function pipInstall(python, ...args) {
  const offline = ['--no-index', '--find-links', path.join(root, '.venv/sdk-wheels'), '-c', requirements];
  const pip = ['-m', 'pip', '--python', python, 'install', '--quiet', '--disable-pip-version-check', ...offline];
  return run(path.join(root, '.venv/sdk/bin/python'), [...pip, ...args]);
}

/** A virtualenv without pip at venv, with the test tools' packages from the tool cache when there is one. */
export async function testVenv(venv) {
  await run('python3', ['-m', 'venv', '--without-pip', venv]);
  const cache = cacheDir('sdk-test-tools');
  if (!cache) return;
  const key = hashOf([requirements, path.join(root, '.venv/sdk/pyvenv.cfg'), new URL(import.meta.url).pathname], ...TEST_TOOLS);
  const entry = path.join(cache, key);
  if (!fs.existsSync(entry)) {
    const filling = `${entry}.${process.pid}`; // renamed when complete: runs at the same time never see half of it
    fs.rmSync(filling, { recursive: true, force: true });
    await run('python3', ['-m', 'venv', '--without-pip', filling]);
    await pipInstall(path.join(filling, 'bin/python'), ...TEST_TOOLS); // byte-compiled: no run compiles them again
    try {
      fs.renameSync(filling, entry);
    } catch {
      fs.rmSync(filling, { recursive: true, force: true }); // another run filled it first
    }
  }
  const [from, to] = [`${sitePackages(entry)}/.`, sitePackages(venv)];
  try {
    execFileSync('cp', ['-al', from, to], { stdio: 'ignore' });
  } catch {
    execFileSync('cp', ['-a', from, to]);
  }
}
