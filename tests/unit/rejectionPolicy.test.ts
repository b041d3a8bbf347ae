import { execFile } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// The service's policy for promise rejections nothing handles (src/rejectionPolicy.ts), in a real Node process:
// a database outage met outside any request (pg-boss 10.4.2 updates jobs without awaiting) is logged and the process
// keeps running; any other such rejection ends it with exit code 1 and a fatal log line.

const root = path.resolve(__dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

const run = (...args: string[]) =>
  new Promise<{ code: number; stdout: string }>((resolve) =>
    execFile(tsx, [path.join(__dirname, 'fixtures/unhandledRejection.ts'), ...args], { cwd: root }, (e, stdout) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, stdout }),
    ),
  );

/** A local port nothing listens on: connections to it are refused. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const logLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { code?: string } });

it('a database call that fails unhandled while PostgreSQL is unreachable is logged, and the process keeps running', async () => {
  const r = await run('database', String(await closedPort()));
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('alive');
  expect(logLines(r.stdout)).toEqual([
    expect.objectContaining({
      level: 50,
      msg: expect.stringContaining('kept running'),
      err: expect.objectContaining({ code: 'ECONNREFUSED' }),
    }),
  ]);
});

it('any other unhandled rejection ends the process with exit code 1 and a fatal log line', async () => {
  const r = await run('bug');
  expect(r.code).toBe(1);
  expect(r.stdout).not.toContain('alive');
  expect(logLines(r.stdout)).toEqual([expect.objectContaining({ level: 60, msg: 'unhandled rejection' })]);
});
