import type { Knex } from 'knex';

// Rows written straight into a migrated database, for tests below the API (migrations, query plans): only the
// columns without a default.

/** An account with one merchant. */
export async function insertShop(db: Knex, accountId: string, merchantId: string): Promise<void> {
  await db('accounts').insert({ id: accountId, name: accountId, default_version: '2026-02-18' });
  await db('merchants').insert({
    id: merchantId,
    account_id: accountId,
    name: merchantId,
    created_at: db.fn.now(),
    updated_at: db.fn.now(),
  });
}

/** An open payment of the merchant. */
export const insertPayment = (db: Knex, id: string, accountId: string, merchantId: string) =>
  db('payments').insert({
    id,
    account_id: accountId,
    merchant_id: merchantId,
    reference_id: 'r',
    currency: 'USD',
    amount_minor: '100',
    status: 'requires_action',
    expires_at: db.fn.now(),
    created_at: db.fn.now(),
    updated_at: db.fn.now(),
  });
