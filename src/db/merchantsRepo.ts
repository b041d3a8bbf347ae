import { canBeStoredId } from '../domain/ids';
import type { CryptoSettlement, Merchant, MerchantListQuery } from '../domain/merchant';
import { Db, knexOf } from './knex';

export interface MerchantRow {
  id: string;
  account_id: string;
  name: string;
  email: string | null;
  icon_url: string | null;
  status: Merchant['status'];
  created_at: Date;
  deleted_at: Date | null;
}

export const merchantFromRow = (r: MerchantRow): Merchant => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  email: r.email,
  iconUrl: r.icon_url,
  status: r.status,
  createdAt: r.created_at,
  deletedAt: r.deleted_at,
});

export async function insertMerchant(db: Db, m: Merchant): Promise<void> {
  const knex = knexOf(db);
  await knex('merchants').insert({
    id: m.id,
    account_id: m.accountId,
    name: m.name,
    email: m.email,
    icon_url: m.iconUrl,
    status: m.status,
    created_at: m.createdAt,
    updated_at: m.createdAt,
  });
}

export async function findMerchant(db: Db, id: string): Promise<Merchant | undefined> {
  const knex = knexOf(db);
  if (!canBeStoredId(id)) return undefined;
  const row = await knex<MerchantRow>('merchants').where({ id }).first();
  return row && merchantFromRow(row);
}

export interface MerchantPatch {
  name?: string;
  email?: string;
  iconUrl?: string | null;
}

export async function updateMerchant(db: Db, id: string, patch: MerchantPatch): Promise<Merchant | undefined> {
  const knex = knexOf(db);
  const changes: Record<string, unknown> = { updated_at: new Date() };
  if (patch.name !== undefined) changes.name = patch.name;
  if (patch.email !== undefined) changes.email = patch.email;
  if (patch.iconUrl !== undefined) changes.icon_url = patch.iconUrl;
  const [row] = await knex<MerchantRow>('merchants').where({ id }).whereNull('deleted_at').update(changes).returning('*');
  return row && merchantFromRow(row as MerchantRow);
}

export async function softDeleteMerchant(db: Db, id: string): Promise<void> {
  const knex = knexOf(db);
  await knex('merchants').where({ id }).whereNull('deleted_at').update({ deleted_at: new Date(), updated_at: new Date() });
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

export async function listMerchants(db: Db, accountId: string, q: MerchantListQuery) {
  const knex = knexOf(db);
  const filtered = () => {
    const b = knex<MerchantRow>('merchants').where({ account_id: accountId }).whereNull('deleted_at');
    if (q.status) b.andWhere({ status: q.status });
    if (q.search) {
      const pattern = `%${escapeLike(q.search)}%`;
      b.andWhere((w) => w.whereILike('name', pattern).orWhereILike('id', pattern));
    }
    return b;
  };
  const page = filtered()
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(q.limit + 1);
  if (q.after) page.andWhereRaw('(created_at, id) < (?::timestamptz, ?)', [q.after.t, q.after.i]);
  const [rows, [{ count }]] = await Promise.all([page, filtered().count<{ count: string }[]>({ count: '*' })]);
  const items = (rows as MerchantRow[]).map(merchantFromRow);
  const hasMore = items.length > q.limit;
  return { items: items.slice(0, q.limit), hasMore, totalCount: Number(count) };
}

export async function listCryptoSettlements(db: Db, merchantId: string): Promise<CryptoSettlement[]> {
  const knex = knexOf(db);
  return knex('crypto_settlements').where({ merchant_id: merchantId }).orderBy('seq').select('id', 'asset', 'destination');
}
