import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// What the service runs beside itself (the embedded PostgreSQL, the development chains' anvil): each in a process
// group (and session) of its own, so that the terminal's Ctrl-C reaches the service alone, which drains first and
// then stops them in order (src/main.ts). So that they do not outlive a service that is SIGKILLed or crashes, each
// is started through util-linux's setpriv with a parent-death signal (prctl PR_SET_PDEATHSIG): the kernel sends
// `deathSignal` to it when this process ends. Without setpriv (not Linux, or no util-linux) they may outlive it;
// the next start of the same checkout then finds them as its own and reuses them (docs/operations.md, "Ports").

let setpriv: string | null | undefined;
/** setpriv, when it is there and knows --pdeathsig (util-linux 2.33 and later). */
function setprivPath(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  for (const p of ['/usr/bin/setpriv', '/bin/setpriv']) {
    try {
      if (
        fs.existsSync(p) &&
        execFileSync(p, ['--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).includes('--pdeathsig')
      ) {
        setpriv = p;
        break;
      }
    } catch {
      /* not usable */
    }
  }
  return setpriv;
}

export function spawnOwned(
  command: string,
  args: string[],
  deathSignal: 'INT' | 'TERM',
  options: Omit<SpawnOptions, 'detached'> = {},
): ChildProcess {
  const sp = setprivPath();
  const [cmd, argv] = sp ? [sp, ['--pdeathsig', deathSignal, '--', command, ...args]] : [command, args];
  return spawn(cmd, argv, { ...options, detached: true });
}

/** Signals the child and waits for it to exit; SIGKILL after `graceMs`. */
export async function stopOwned(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
  clearTimeout(timer); // else it keeps the process alive for up to graceMs after the child has exited
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Whether `dir` and `other` name the same folder (through links); false when either does not exist. */
export function sameDir(dir: string, other: string): boolean {
  try {
    return fs.realpathSync(path.resolve(dir)) === fs.realpathSync(path.resolve(other));
  } catch {
    return false;
  }
}
