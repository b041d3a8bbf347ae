// The SDK packages (scripts/sdk-packages.mjs) installed as their users install them, each into a clean
// temporary folder, and the command that pays one payment with it on the stack's development chain:
//   - TypeScript: a folder with its own package.json and `npm install <tgz>` (offline: the SDK has no
//     dependencies); the quickstart's sdk-only variant, type-checked against the installed declarations,
//     then run on the installed JavaScript: a tsconfig there maps `@paygate/sdk` to the installed package
//     (the type-check is kept when its inputs are unchanged: sdk-tests/typecheck.mjs);
//   - Python: a fresh virtualenv and `pip install <wheel>`, resolving its dependencies, with pytest and
//     eth-account, from .venv/sdk-wheels (offline, the pins of sdk-tests/requirements.txt; those two come
//     from the tool cache: sdk-tests/test-tools.mjs); the smoke test's payment, which checks that it imports
//     the installed client.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from '../scripts/sdk-packages.mjs';
import { root } from '../scripts/sdk-tree.mjs';
import { pipInstall, TEST_TOOLS, testVenv } from './test-tools.mjs';
import { typecheck } from './typecheck.mjs';

const folders = [];
function tempFolder(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

/** Removes every folder the installs made. */
export function removeInstalls() {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** `npm install` of the package in a new folder; `{ cmd, args, env }` of its payment. */
export async function installTypescript(tgz, version) {
  const dir = tempFolder('paygate-sdk-typescript-');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'paygate-sdk-user', version: '0.0.0', private: true }, null, 2));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tgz], { cwd: dir });
  const quickstart = path.join(root, 'examples/quickstart');
  const tsconfig = path.join(dir, 'tsconfig.json');
  fs.writeFileSync(
    tsconfig,
    JSON.stringify(
      {
        extends: path.join(quickstart, 'tsconfig.json'),
        // Only @types/node (the service's other @types are not the SDK user's business), from the project.
        compilerOptions: {
          paths: { '@paygate/sdk': ['./node_modules/@paygate/sdk'] },
          types: ['node'],
          typeRoots: [path.join(root, 'node_modules/@types')],
        },
        include: [path.join(quickstart, '*.ts')],
      },
      null,
      2,
    ),
  );
  // The declarations: the quickstart's SDK code compiles against them (its --noEmit settings); not again when
  // nothing it reads changed since it passed (sdk-tests/typecheck.mjs).
  const checked = await typecheck(
    tsconfig,
    dir,
    [
      tgz,
      ...['tsconfig.json', 'examples/quickstart/tsconfig.json', 'package-lock.json', 'clients/typescript/package.json'].map((f) =>
        path.join(root, f),
      ),
    ],
    [fs.readdirSync(quickstart).sort().join('\n')],
  );
  return {
    checked,
    cmd: path.join(root, 'node_modules/.bin/tsx'),
    args: ['--tsconfig', tsconfig, path.join(quickstart, 'quickstart.ts'), '--variant', 'sdk-only'],
    env: { PAYGATE_VERSION: version },
  };
}

/** `pip install` of the wheel into a new virtualenv; `{ cmd, args, env }` of its payment (pytest writes junit). */
export async function installPython(wheel, version, junit) {
  const venv = path.join(tempFolder('paygate-sdk-python-'), 'venv');
  await testVenv(venv);
  const python = path.join(venv, 'bin/python');
  await pipInstall(python, '--no-compile', wheel, ...TEST_TOOLS);
  return {
    cmd: python,
    args: ['-m', 'pytest', 'sdk-tests/python', '-q', '-p', 'no:cacheprovider', '-k', 'a_wallet_pays_on_chain', `--junitxml=${junit}`],
    env: { PAYGATE_VERSION: version, PAYGATE_SDK_INSTALLED: '1', PYTHONDONTWRITEBYTECODE: '1' },
  };
}
