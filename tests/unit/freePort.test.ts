// scripts/free-port.cjs: two processes picking ports at the same time (as make test's parts do beside each other)
// never get the same port, and neither gets one twice, although the kernel's own pick repeats itself within
// a few hundred picks (scripts/free-port.cjs).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const script = path.join(__dirname, '../../scripts/free-port.cjs');
const picks = (n: number) =>
  promisify(execFile)(process.execPath, [
    '-e',
    `const { freePort } = require(${JSON.stringify(script)});
     (async () => { const ports = []; for (let i = 0; i < ${n}; i++) ports.push(await freePort()); process.stdout.write(JSON.stringify(ports)); })();`,
  ]).then((r) => JSON.parse(r.stdout) as number[]);

it('hands each port to one pick only, across processes', async () => {
  const [a, b] = await Promise.all([picks(300), picks(300)]);
  const all = [...a, ...b];
  expect(all).toHaveLength(600);
  expect(new Set(all).size).toBe(600);
  for (const p of all) expect(p).toBeGreaterThan(1023);
});
