// Memory of the CSV export: GET /v1/reports/balance-transactions with `Accept: text/csv` streams an account's ledger
// entries a page at a time (docs/ledger.md), so the service's memory must not grow with the number of rows. One
// service process, one PostgreSQL: a baseline account of BENCH_EXPORT_BASE_ROWS entries streamed first, then one of
// BENCH_EXPORT_ROWS; for each, the service's peak RSS while it streams (sampled, and the kernel's high-water mark),
// rows/s and bytes. Memory stays flat when the large export's peak is within a few MB of the baseline's.
// Run: make bench-export   (BENCH_EXPORT_ROWS=1000000, BENCH_EXPORT_BASE_ROWS=10000)
import fs from 'node:fs';
import pgLib from 'pg';
import { fmt, freePort, node, rssMb, serviceEnv, startChild, startPostgres, stopChild } from './lib.mjs';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS || 1_000_000);
const BASE_ROWS = Number(process.env.BENCH_EXPORT_BASE_ROWS || 10_000);
const ASSET = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const HOLDER = '0x52908400098527886E0F7030069857D2E4169EE7';

const hwmMb = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/**
 * `rows` ledger entries of the account, in balanced journals of two (available → reserved), written in bulk: the
 * per-row balance trigger is off while they are inserted (each journal balances by construction).
 */
async function seedEntries(db, accountId, rows) {
  await db.query('BEGIN');
  await db.query('ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_balanced');
  await db.query(
    `INSERT INTO ledger_journals (ref, kind, account_id, created_at)
     SELECT 'bench:' || $1 || ':' || g, 'settle_reserved', $1, now() - interval '1 hour' FROM generate_series(1, $2) g`,
    [accountId, rows / 2],
  );
  await db.query(
    `INSERT INTO ledger_entries (journal_id, owner, bucket, asset, holder, amount)
     SELECT j.id, $1, b.bucket, $2, $3, b.amount FROM ledger_journals j
       CROSS JOIN (VALUES ('available', -1000), ('reserved', 1000)) b(bucket, amount)
     WHERE j.account_id = $1 ORDER BY j.id, b.bucket`,
    [accountId, ASSET, HOLDER],
  );
  await db.query('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_balanced');
  await db.query('COMMIT');
}

/** Streams the account's CSV, reading the body as it comes (nothing kept), sampling the service's RSS meanwhile. */
async function exportOnce(svc, pid, apiKey, expected) {
  const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
  // The peak per quarter of the rows: flat memory plateaus after the first quarter instead of rising to the end.
  const quarters = [0, 0, 0, 0];
  let lines = 0;
  const timer = setInterval(() => {
    const q = Math.min(3, Math.floor((4 * lines) / expected));
    quarters[q] = Math.max(quarters[q], rssMb(pid));
  }, 20);
  const t0 = performance.now();
  const res = await fetch(`${svc}/v1/reports/balance-transactions?from=2000-01-01T00:00:00Z&to=${to}`, {
    headers: { 'Api-Key': apiKey, 'PAY-Version': '2026-02-19.preview', Accept: 'text/csv' },
  });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return { rows: lines - 1, bytes, seconds, peakRss: Math.max(...quarters), quarters, hwm: hwmMb(pid) };
}

const pg = await startPostgres();
let child;
try {
  node('dist/src/cli/migrate.js', { DATABASE_URL: pg.url });
  const account = (name) => JSON.parse(node('dist/src/cli/admin.js', { DATABASE_URL: pg.url }, ['accounts', 'create', '--name', name]));
  const base = account('Export baseline');
  const big = account('Export');
  const db = new pgLib.Client({ connectionString: pg.url });
  await db.connect();
  const s0 = performance.now();
  await seedEntries(db, base.accountId, BASE_ROWS);
  await seedEntries(db, big.accountId, ROWS);
  await db.query('ANALYZE ledger_entries');
  await db.query('ANALYZE ledger_journals');
  await db.end();
  console.log(`seeded ${BASE_ROWS + ROWS} ledger entries in ${fmt((performance.now() - s0) / 1000)} s`);

  const port = await freePort();
  child = await startChild('dist/src/main.js', serviceEnv(pg.url, port), `http://127.0.0.1:${port}/readyz`);
  const svc = `http://127.0.0.1:${port}`;
  const idle = rssMb(child.pid);
  const warm = await exportOnce(svc, child.pid, base.apiKey, BASE_ROWS); // loads the code paths once, unmeasured
  const a = await exportOnce(svc, child.pid, base.apiKey, BASE_ROWS);
  const b = await exportOnce(svc, child.pid, big.apiKey, ROWS);
  if (a.rows !== BASE_ROWS || b.rows !== ROWS) throw new Error(`rows streamed ${a.rows} and ${b.rows}, expected ${BASE_ROWS} and ${ROWS}`);
  void warm;
  console.log(`\nservice RSS idle ${fmt(idle)} MB`);
  console.log('export | rows | MB sent | seconds | rows/s | peak RSS MB (sampled) | per quarter of the rows | RSS high-water mark MB');
  for (const [name, r] of [
    ['baseline', a],
    ['large', b],
  ])
    console.log(
      `${name} | ${r.rows} | ${fmt(r.bytes / 1e6)} | ${fmt(r.seconds)} | ${Math.round(r.rows / r.seconds)} | ${fmt(r.peakRss)} | ${r.quarters.map(fmt).join(' / ')} | ${fmt(r.hwm)}`,
    );
  console.log(`peak RSS, large over baseline: +${fmt(b.peakRss - a.peakRss)} MB for ${fmt(ROWS / BASE_ROWS)}x the rows`);
} finally {
  if (child) await stopChild(child);
  await pg.stop();
}
