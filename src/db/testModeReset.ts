import { testScopeOf } from '../domain/mode';
import { Db, knexOf } from './knex';
import { TX_OPEN } from '../domain/chainTx';
import { inSet } from './stateSql';

// `admin testmode reset` (docs/testmode.md): an account's test data goes, and nothing else. Everything is found
// through the test scope (src/domain/mode.ts): its payments, and what hangs off them, its merchants and their
// settlements, webhook endpoints, events and deliveries, refunds, x402 settlements, ledger journals and
// idempotency keys. Its keys and apps stay. The ledger's row trigger allows these deletes only here.

export type ResetRefusal = 'no_account' | 'processing';

/** What was deleted, by table; or why nothing was (a test payment still moving on chain: wait, then run again). */
export async function resetTestData(db: Db, accountId: string): Promise<Record<string, number> | ResetRefusal> {
  const scope = testScopeOf(accountId);
  return knexOf(db).transaction(async (trx) => {
    const account = await trx('accounts').where({ id: accountId, livemode: true }).first('id');
    if (!account) return 'no_account';
    // The scope row is locked: no test credential makes objects while they go (creation reads it).
    await trx.raw('SELECT id FROM accounts WHERE id = ? FOR UPDATE', [scope]);
    const moving = await trx.raw(
      `SELECT 1 FROM chain_transactions t JOIN payments p ON p.id = t.payment_id
       WHERE p.account_id = ? AND ${inSet('t.status', TX_OPEN)} LIMIT 1`,
      [scope],
    );
    if (moving.rows.length) return 'processing';
    await trx.raw("SET LOCAL paygate.test_reset = 'on'");
    const counts: Record<string, number> = {};
    const run = async (table: string, sql: string, bindings: string[] = [scope]) => {
      counts[table] = (await trx.raw(sql, bindings)).rowCount ?? 0;
    };
    const ofPayments = (table: string) => `DELETE FROM ${table} WHERE payment_id IN (SELECT id FROM payments WHERE account_id = ?)`;
    const journals = `SELECT j.id FROM ledger_journals j LEFT JOIN payments p ON p.id = j.payment_id
      WHERE j.account_id = :scope OR p.account_id = :scope`;
    await run(
      'webhook_attempts',
      'DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE account_id = ?)',
    );
    await run('webhook_deliveries', 'DELETE FROM webhook_deliveries WHERE account_id = ?');
    await run('payment_event_outbox', 'DELETE FROM payment_event_outbox WHERE account_id = ?');
    await run('payment_events', 'DELETE FROM payment_events WHERE account_id = ?');
    counts.ledger_entries = (await trx.raw(`DELETE FROM ledger_entries WHERE journal_id IN (${journals})`, { scope })).rowCount ?? 0;
    counts.ledger_journals = (await trx.raw(`DELETE FROM ledger_journals WHERE id IN (${journals})`, { scope })).rowCount ?? 0;
    await run('refund_fundings', ofPayments('refund_fundings'));
    await run('refund_reserves', ofPayments('refund_reserves'));
    await run('refunds', 'DELETE FROM refunds WHERE account_id = ?');
    for (const t of ['x402_settlements', 'settlement_failures', 'payment_authorizations', 'chain_submissions', 'chain_transactions'])
      await run(t, ofPayments(t));
    // A payment and its options point at each other: one statement deletes both (its foreign keys are checked at its end).
    await run('payments', `WITH o AS (${ofPayments('payment_options')}) DELETE FROM payments WHERE account_id = ?`, [scope, scope]);
    await run('crypto_settlements', 'DELETE FROM crypto_settlements WHERE merchant_id IN (SELECT id FROM merchants WHERE account_id = ?)');
    await run('merchants', 'DELETE FROM merchants WHERE account_id = ?');
    await run('webhook_endpoints', 'DELETE FROM webhook_endpoints WHERE account_id = ?');
    await run(
      'idempotency_keys',
      `DELETE FROM idempotency_keys WHERE scope = 'account:' || ?
         OR scope IN (SELECT 'caller:' || id FROM api_keys WHERE account_id = ? UNION SELECT 'caller:' || id FROM apps WHERE account_id = ?)`,
      [scope, scope, scope],
    );
    return counts;
  });
}
