// Profiling of part 2 (BENCH_CHAIN_PROFILE=1): RPC calls, database sessions, CPU by process kind, a V8
// CPU profile's hottest functions, and the report of them.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fmt, root } from '../lib.mjs';
import { N } from './config.mjs';
import { sleep } from './chainOps.mjs';

/** Profiling: an HTTP proxy in front of anvil counting the JSON-RPC calls per method, their batches and time. */
export async function rpcProxy(target) {
  const stats = new Map();
  const stat = (k) => stats.get(k) ?? stats.set(k, { calls: 0, ms: 0 }).get(k);
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const msgs = [JSON.parse(body)].flat();
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      const t0 = performance.now();
      let r;
      let text;
      try {
        r = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        text = await r.text();
      } catch (e) {
        r = { status: 502 };
        text = String(e);
      } finally {
        inFlight--;
      }
      const dt = performance.now() - t0;
      const h = stat(msgs.length > 1 ? '(HTTP requests carrying a batch)' : '(HTTP requests carrying one call)');
      h.calls++;
      h.ms += dt;
      if (msgs.length > 1) stat('(calls inside batches)').calls += msgs.length;
      for (const m of msgs) {
        const s = stat(m.method);
        s.calls++;
        s.ms += dt;
      }
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    reset: () => {
      stats.clear();
      maxInFlight = 0;
    },
    report: () => ({ maxInFlight, stats: [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms) }),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Profiling: the service's database sessions every 10 ms, counted by state and wait event. */
export function sampleSessions(db, dbName) {
  const counts = new Map();
  let samples = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const { rows } = await db.raw(
        `SELECT state, coalesce(wait_event_type || ':' || wait_event, 'on cpu / in flight') AS w FROM pg_stat_activity
         WHERE datname = ? AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
        [dbName],
      );
      samples++;
      for (const r of rows) counts.set(`${r.state} ${r.w}`, (counts.get(`${r.state} ${r.w}`) || 0) + 1);
      await sleep(10);
    }
  })();
  return async () => {
    stopped = true;
    await done;
    return { samples, sessions: [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, n / samples]) };
  };
}

/**
 * CPU seconds used so far by this process and its descendants (the service, anvil, PostgreSQL and its
 * backends), by kind, from /proc (Linux; empty elsewhere). Two readings bracket a run: the machine's
 * cores are shared, so what a payment costs in CPU says what rate the machine can reach.
 */
export function cpuByKind() {
  const kinds = {};
  let procs;
  try {
    procs = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return kinds;
  }
  const hz = 100; // USER_HZ: clock ticks per second in /proc/<pid>/stat on Linux
  const info = new Map();
  for (const pid of procs) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      info.set(pid, { ppid: f[1], ticks: Number(f[11]) + Number(f[12]), cmd });
    } catch {
      /* gone */
    }
  }
  const ours = new Set([String(process.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, x] of info)
      if (!ours.has(pid) && ours.has(x.ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  for (const pid of ours) {
    const x = info.get(pid);
    if (!x) continue;
    const kind = /anvil/.test(x.cmd)
      ? 'anvil'
      : /main\.js/.test(x.cmd)
        ? 'service'
        : /postgres/.test(x.cmd)
          ? 'postgres'
          : pid === String(process.pid)
            ? 'bench'
            : 'other';
    kinds[kind] = (kinds[kind] || 0) + x.ticks / hz;
  }
  return kinds;
}

/** Profiling: the functions with the most self time in a V8 CPU profile (by script and line), within a time window. */
function topSelfTime(file, [from, to], n = 25) {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const self = new Map();
  const dts = prof.timeDeltas;
  let at = BigInt(prof.startTime);
  for (let i = 0; i < prof.samples.length; i++) {
    at += BigInt(dts[i] || 0);
    if (at < from || at > to) continue; // only the measured window
    const f = byId.get(prof.samples[i]).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(root, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + (dts[i] || 0) / 1000);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return { totalMs: total, top: [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, n) };
}

export function printProfile(p) {
  const s = p.durationMs / 1000;
  console.log(`\nprofile of part 2 (${fmt(s)} s): JSON-RPC calls from the service (max ${p.rpc.maxInFlight} HTTP requests in flight)`);
  console.log('  method | calls | per s | mean ms per HTTP round trip | summed ms');
  for (const [m, x] of p.rpc.stats)
    console.log(`  ${m} | ${x.calls} | ${fmt(x.calls / s)} | ${x.ms ? fmt(x.ms / x.calls) : '-'} | ${x.ms ? fmt(x.ms) : '-'}`);
  console.log(`  database sessions of the service, mean count per sample (${p.db.samples} samples, every 10 ms):`);
  for (const [k, n] of p.db.sessions) console.log(`    ${k}: ${fmt(n)}`);
  const calls = p.statements.reduce((a, r) => a + r.calls, 0);
  console.log(
    `  SQL statements in the service's database: ${calls} (${fmt(calls / N)} per payment; pg_stat_statements, includes pg-boss and this script's polling), the most frequent:`,
  );
  for (const r of p.statements.slice(0, Number(process.env.BENCH_CHAIN_STATEMENTS || 20)))
    console.log(`    ${r.calls} x ${fmt(r.ms / r.calls)} ms  ${r.query.slice(0, 150)}`);
  const file = fs.readdirSync(p.profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return console.log('  (no CPU profile written)');
  const cpu = topSelfTime(path.join(p.profDir, file), p.window);
  console.log(`  service CPU during the run, self time (${fmt(cpu.totalMs)} ms sampled; ${p.profDir}/${file}; logs in service.log):`);
  for (const [k, ms] of cpu.top) console.log(`    ${fmt(ms)} ms  ${k}`);
}
