// Wall and CPU time of a part of a script (make test's jest parts, the contract gate's phases), for CI's
// console: appended to $CI_TIMES in .ci/timed-shell's format when it is set (.ci/run), else not recorded.
// CPU is user + sys of the child processes this process waited for while the part ran (Linux: cutime and
// cstime of /proc/self/stat), so parts that run side by side are measured together, as one part.
import fs from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ, the unit of /proc/<pid>/stat times on Linux

function childrenCpuS() {
  try {
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_S;
  } catch {
    return NaN;
  }
}

/** Runs fn (sync or async), records `label`'s wall and children's CPU time, returns fn's result. */
export async function timed(label, fn) {
  const wall0 = Date.now();
  const cpu0 = childrenCpuS();
  try {
    return await fn();
  } finally {
    const file = process.env.CI_TIMES;
    const cpu = childrenCpuS() - cpu0;
    if (file && Number.isFinite(cpu)) {
      const depth = Number(process.env.CI_TIMES_DEPTH || '1');
      fs.appendFileSync(file, `${((Date.now() - wall0) / 1000).toFixed(2)}\t${cpu.toFixed(2)}\t${depth}\t${label}\n`);
    }
  }
}
