import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

// What a failed soak leaves for the one who reads a red CI (which keeps no service logs): for each payment a
// violation names, what the database says of its money (its row, its transactions, batches, refunds, failed
// attempts and journals) and what the services logged about it, then the last warnings and errors. Written to
// coverage/soak-diagnosis.txt; .ci/summary.mjs prints that file under the jest line.

type Row = Record<string, any>;
export const DIAGNOSIS_FILE = path.join(__dirname, '..', '..', 'coverage', 'soak-diagnosis.txt');
const PAYMENTS = 3;

const compact = (rows: Row[]) => rows.map((r) => JSON.stringify(r, (_k, v) => (v instanceof Date ? v.toISOString() : v)));

async function paymentState(db: Knex, id: string): Promise<string[]> {
  const p: Row | undefined = await db('payments as p')
    .join('accounts as a', 'a.id', 'p.account_id')
    .leftJoin('payment_options as o', 'o.id', 'p.option_id')
    .where('p.id', id)
    .first(
      'p.status',
      'p.account_id',
      'a.settlement_every_minutes',
      'o.relayer',
      'p.token_amount',
      'p.updated_at',
      'p.settled_at',
      'p.settlement_held_at',
      'p.settlement_hold_reason',
      'p.settlement_next_at',
      'p.settlement_attempts',
    );
  if (!p) return [`  not stored`];
  const txs = await db('chain_transactions')
    .where({ payment_id: id })
    .orderBy('id')
    .select('id', 'purpose', 'status', 'nonce', 'tx_hash', 'signed_at', 'finished_at');
  const batches = await db('settlement_batch_payments as sbp')
    .join('settlement_batches as b', 'b.chain_tx_id', 'sbp.chain_tx_id')
    .join('chain_transactions as c', 'c.id', 'sbp.chain_tx_id')
    .where('sbp.payment_id', id)
    .select('sbp.chain_tx_id', 'sbp.amount', 'sbp.released', 'b.slot', 'c.status', 'c.nonce', 'c.tx_hash');
  const refunds = await db('refunds').where({ payment_id: id }).select('id', 'status', 'token_amount', 'chain_tx_id', 'created_at');
  const failures = await db('settlement_failures').where({ payment_id: id }).orderBy('id').select('attempt', 'reason', 'failed_at');
  const journals = await db('ledger_journals').where({ payment_id: id }).orderBy('id').pluck('ref');
  return [
    `  row ${compact([p])[0]}`,
    ...compact(txs).map((t) => `  tx ${t}`),
    ...compact(batches).map((b) => `  batch ${b}`),
    ...compact(refunds).map((r) => `  refund ${r}`),
    ...compact(failures).map((f) => `  failed attempt ${f}`),
    `  journals ${journals.join(' ')}`,
  ];
}

/**
 * The accounts' balances at each collector, by bucket (what a batch or settlement reserves from), and their last
 * scheduled batches (whether batches stopped being formed, or failed).
 */
async function accountState(db: Knex, accountIds: string[]): Promise<string[]> {
  if (!accountIds.length) return [];
  const rows = await db('ledger_entries')
    .whereIn('owner', accountIds)
    .groupBy('owner', 'bucket', 'holder', 'asset')
    .havingRaw('sum(amount) <> 0')
    .select('owner', 'bucket', 'holder', db.raw('sum(amount)::text AS amount'));
  const batches = await db('settlement_batches as b')
    .join('chain_transactions as c', 'c.id', 'b.chain_tx_id')
    .whereIn('b.account_id', accountIds)
    .orderBy('b.slot', 'desc')
    .limit(6)
    .select('b.slot', 'b.collector', 'b.amount', 'b.released_at', 'c.status', 'c.nonce', 'c.signed_at');
  return [...compact(rows).map((r) => `  balance ${r}`), ...compact(batches).map((b) => `  last batch ${b}`)];
}

/**
 * Sessions of the services not idle (a transaction left open holds its locks: every step waiting on one of them
 * hangs), and each relayer's next nonce as stored.
 */
async function sessions(db: Knex): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT pid, application_name, state, wait_event_type, wait_event, now() - xact_start AS in_transaction,
       left(query, 160) AS query FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle' ORDER BY xact_start`,
  );
  const nonces = await db('relayer_nonces').select('sender', 'next_nonce');
  return [...compact(rows).map((r) => `  session ${r}`), ...compact(nonces).map((n) => `  relayer ${n}`)];
}

/** Writes the diagnosis of `violations` (and returns it). */
export async function writeDiagnosis(
  db: Knex,
  violations: string[],
  logs: { level: number; msg?: string; [k: string]: unknown }[],
): Promise<string> {
  // In time order: the processes' logs are read one process after another.
  logs = [...logs].sort((a, b) => Number(a.time ?? 0) - Number(b.time ?? 0));
  const ids = [...new Set(violations.flatMap((v) => v.match(/pay_[0-9A-Za-z]+/g) ?? []))].slice(0, PAYMENTS);
  const out = [`${violations.length} violation(s):`, ...violations.slice(0, 20).map((v) => `  ${v}`)];
  const accounts = new Set<string>();
  for (const id of ids) {
    const state = await paymentState(db, id).catch((e) => [`  unreadable: ${(e as Error).message}`]);
    const account = (await db('payments').where({ id }).first('account_id'))?.account_id;
    if (account) accounts.add(account);
    const mentions = logs.filter((l) => JSON.stringify(l).includes(id)).slice(-4);
    out.push(`payment ${id}:`, ...state, ...compact(mentions).map((l) => `  log ${l.slice(0, 400)}`));
  }
  out.push(...(await accountState(db, [...accounts]).catch((e) => [`  unreadable: ${(e as Error).message}`])));
  out.push('database sessions not idle, relayer nonces:', ...(await sessions(db).catch((e) => [`  unreadable: ${(e as Error).message}`])));
  out.push(
    'last settlement steps logged:',
    ...compact(logs.filter((l) => l.level >= 30 && /settle/i.test(String(l.msg))).slice(-10)).map((l) => `  ${l.slice(0, 400)}`),
  );
  out.push('last warnings and errors:', ...compact(logs.filter((l) => l.level >= 40).slice(-15)).map((l) => `  ${l.slice(0, 400)}`));
  const text = out.join('\n');
  fs.mkdirSync(path.dirname(DIAGNOSIS_FILE), { recursive: true });
  fs.writeFileSync(DIAGNOSIS_FILE, `${text}\n`);
  return text;
}
