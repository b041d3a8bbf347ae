import fs from 'node:fs';
import http from 'node:http';
import { eventually } from '../support/eventually';
import { merchantWithSettlement } from '../support/fixtures';
import { client, TestService } from '../support/service';
import { spawnService } from '../support/serviceProcess';

// PROCESSES=2 (src/cluster.ts): one port, two whole service processes over one database, as docs/operations.md
// ("Processes per machine") describes. The built service as an OS process; skipped under the contract gate.

/** The pids of the processes whose parent is `pid` (from /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after its closing parenthesis.
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** A GET on a connection of its own, so that the cluster hands each to a process anew. */
const freshGet = (url: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
      .on('error', reject)
      .setTimeout(10_000, function (this: http.ClientRequest) {
        this.destroy(new Error('no answer in 10 s'));
      });
  });

describe('PROCESSES=2', () => {
  it('serves one port from two processes, replaces one that dies, and stops them all on SIGTERM', async () => {
    const svc = await spawnService({ PROCESSES: '2' });
    try {
      const primary = svc.proc.pid!;
      const workers = await eventually(
        async () => childrenOf(primary),
        (k) => k.length === 2,
        20_000,
      );
      expect(workers).toHaveLength(2);
      await eventually(
        async () => svc.logs.filter((l) => l.msg === 'paygate listening').length,
        (n) => n === 2,
        20_000,
      );

      const m = await merchantWithSettlement({ url: svc.url, directUrl: svc.url } as TestService, 'Cluster Shop');
      const headers = { 'Api-Key': m.apiKey, 'Merchant-Id': m.merchantId };
      const created = await client(svc.url, headers)('POST', '/v1/payments', {
        body: { referenceId: 'cluster-1', amount: { unit: 'iso4217/USD', value: '100' } },
      });
      expect(created.status).toBe(201);
      const statuses = await Promise.all(
        Array.from({ length: 40 }, () => freshGet(`${svc.url}/v1/payments/${created.body.paymentId}/status`, headers)),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
      const answeredBy = new Set(
        (svc.logs as { msg: string; path?: string; pid?: number }[])
          .filter((l) => l.msg === 'request' && l.path?.endsWith('/status'))
          .map((l) => l.pid),
      );
      expect([...answeredBy].sort()).toEqual([...workers].sort()); // both processes answered

      // A process that dies is replaced; the other goes on serving meanwhile.
      process.kill(workers[0], 'SIGKILL');
      // Once the primary has seen the exit, it hands new connections to the live process only.
      await eventually(
        async () => svc.logs.some((l) => l.msg === 'a service process exited; starting another'),
        (seen) => seen,
        10_000,
      );
      expect(await freshGet(`${svc.url}/v1/payments/${created.body.paymentId}/status`, headers)).toBe(200);
      const replaced = await eventually(
        async () => childrenOf(primary),
        (k) => k.length === 2 && !k.includes(workers[0]),
        20_000,
      );
      expect(replaced).toHaveLength(2);
      expect(replaced).toContain(workers[1]);

      await svc.kill('SIGTERM');
      expect((await svc.exited).code).toBe(0);
      for (const pid of replaced) expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
    } finally {
      await svc.kill();
    }
  }, 90_000);
});
