import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { ownedBy } from '../../domain/mode';
import { newId } from '../../domain/ids';
import { encodeCursor, decodeCursor } from '../../domain/cursor';
import { isMerchantCursor, Merchant, MerchantStatus, toIso } from '../../domain/merchant';
import * as repo from '../../db/merchantsRepo';

// Merchant use cases. Account boundary: a merchant of another account is 403 (the key is valid but not
// for that resource); a merchant that does not exist, or is soft-deleted, is 404.

export async function createMerchant(
  db: Db,
  accountId: string,
  input: { name: string; email: string; iconUrl?: string | null },
): Promise<Merchant> {
  const m: Merchant = {
    id: newId('mrch'),
    accountId,
    name: input.name,
    email: input.email,
    iconUrl: input.iconUrl ?? null,
    status: 'active',
    createdAt: new Date(),
    deletedAt: null,
  };
  await repo.insertMerchant(db, m);
  return m;
}

/** The account's merchant, including soft-deleted ones when `includeDeleted`. */
export async function ownedMerchant(db: Db, accountId: string, id: string, includeDeleted = false): Promise<Merchant> {
  const m = await repo.findMerchant(db, id);
  const visible = m && (!m.deletedAt || includeDeleted) ? m : undefined;
  return ownedBy(visible, accountId, () => new AppError('merchant_not_found'), 'This merchant belongs to another account.');
}

export async function getMerchantWithSettlements(db: Db, accountId: string, id: string) {
  const merchant = await ownedMerchant(db, accountId, id);
  const crypto = await repo.listCryptoSettlements(db, id);
  return { merchant, settlements: { crypto, fiat: [] as never[] } };
}

export async function updateMerchant(db: Db, accountId: string, id: string, patch: repo.MerchantPatch): Promise<Merchant> {
  await ownedMerchant(db, accountId, id);
  const updated = await repo.updateMerchant(db, id, patch);
  if (!updated) throw new AppError('merchant_not_found'); // deleted concurrently
  return updated;
}

/** Idempotent: deleting a deleted merchant succeeds again. */
export async function deleteMerchant(db: Db, accountId: string, id: string): Promise<void> {
  const m = await ownedMerchant(db, accountId, id, true);
  if (!m.deletedAt) await repo.softDeleteMerchant(db, id);
}

export async function listMerchants(
  db: Db,
  accountId: string,
  q: { status?: MerchantStatus; search?: string; cursor?: string; limit?: number },
) {
  const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor, isMerchantCursor);
  if (after === null) throw new AppError('params_validation', undefined, [{ field: 'cursor', message: 'is not a cursor from this API' }]);
  const limit = q.limit ?? 20;
  const page = await repo.listMerchants(db, accountId, { status: q.status, search: q.search, after, limit });
  const last = page.items[page.items.length - 1];
  return {
    items: page.items,
    totalCount: page.totalCount,
    nextCursor: page.hasMore && last ? encodeCursor({ t: toIso(last.createdAt), i: last.id }) : null,
  };
}
