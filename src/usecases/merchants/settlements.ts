import { Db, inTransaction } from '../../db/knex';
import { parseAccountId, parseAssetId, CaipError } from '../../domain/caip';
import type { ChainWork } from '../../domain/chain';
import { AppError, Issue } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { listCryptoSettlements } from '../../db/merchantsRepo';
import * as repo from '../../db/settlementsRepo';
import { releaseHeldSettlements } from '../../db/settlementTransfersRepo';
import { ownedMerchant } from './merchants';
import { checkDestinations, type Entry } from './settlementDestinations';

// Crypto settlements: where a merchant's funds go, one destination per asset. Creation is all or nothing. What can
// never settle is refused first (settlementDestinations.ts), outside the request's transaction: each operation's
// `check…` runs in its handler's `prepare`, and what it answers is what the operation stores. An unknown or other
// account's merchant or settlement is not refused there but answered by the operation, in the request's
// transaction, so that the refusal is stored under its Idempotency-Key like any other (src/http/pipeline/idempotency.ts).

/** What a check answers: the checked input, or the merchant's or settlement's refusal for the operation to answer. */
export type Checked<T> = { ok: T } | { refused: AppError };

async function ownership<T>(f: () => Promise<T>): Promise<{ ok: T } | { refused: AppError }> {
  try {
    return { ok: await f() };
  } catch (e) {
    if (e instanceof AppError) return { refused: e };
    throw e;
  }
}

const checked = <T>(c: Checked<T>): T => {
  if ('refused' in c) throw c.refused;
  return c.ok;
};

function parseEntry(asset: string, destination: string, at: string, issues: Issue[]) {
  let a: ReturnType<typeof parseAssetId> | undefined;
  let d: ReturnType<typeof parseAccountId> | undefined;
  try {
    a = parseAssetId(asset);
  } catch (e) {
    issues.push({ field: `${at}/asset`, message: (e as CaipError).message });
  }
  try {
    d = parseAccountId(destination);
  } catch (e) {
    issues.push({ field: `${at}/destination`, message: (e as CaipError).message });
  }
  if (a && d && a.chain.id !== d.chain.id) {
    issues.push({ field: `${at}/destination`, message: `must be on the asset's chain ${a.chain.id}, not ${d.chain.id}` });
  }
  return { a, d };
}

/** The settlements to create, parsed and checked (400 malformed, 422 what can never settle); none stored yet. */
export async function checkNewSettlements(
  db: Db,
  chainWork: ChainWork,
  accountId: string,
  merchantId: string,
  entries: { asset: string; destination: string }[],
): Promise<Checked<Entry[]>> {
  const owned = await ownership(() => ownedMerchant(db, accountId, merchantId));
  if ('refused' in owned) return owned;
  const issues: Issue[] = [];
  const parsed = entries.map((e, i) => ({ ...parseEntry(e.asset, e.destination, `/settlements/${i}`, issues), at: `/settlements/${i}` }));
  if (issues.length) throw new AppError('params_validation', 'Some settlements are invalid; nothing was stored.', issues);
  const valid = parsed as Entry[];
  await checkDestinations(db, chainWork, valid);
  return { ok: valid };
}

/** Stores the settlements checkNewSettlements answered, all or none. */
export async function createSettlements(db: Db, accountId: string, merchantId: string, check: Checked<Entry[]>) {
  const entries = checked(check);
  await ownedMerchant(db, accountId, merchantId);
  const assets = entries.map((p) => p.a.id);
  const dup = assets.find((a, i) => assets.indexOf(a) !== i);
  if (dup) throw new AppError('settlement_asset_conflict', `The request names ${dup} twice; nothing was stored.`);
  const existing = new Set(await repo.settlementAssets(db, merchantId));
  const taken = assets.find((a) => existing.has(a));
  if (taken) throw new AppError('settlement_asset_conflict', `A settlement for ${taken} is already registered; nothing was stored.`);

  const rows = entries.map((p) => ({ id: newId('crypto'), asset: p.a.id, destination: p.d.id, chainId: p.a.chain.id }));
  try {
    await inTransaction(db, (trx) => repo.insertSettlements(trx, merchantId, rows));
  } catch (e) {
    // A concurrent request registered the same asset between our check and the insert.
    if ((e as { code?: string }).code === '23505')
      throw new AppError(
        'settlement_asset_conflict',
        'A settlement for one of these assets was registered concurrently; nothing was stored.',
      );
    throw e;
  }
  return rows.map(({ id, asset, destination }) => ({ id, asset, destination }));
}

export async function listSettlements(db: Db, accountId: string, merchantId: string) {
  await ownedMerchant(db, accountId, merchantId);
  return { crypto: await listCryptoSettlements(db, merchantId), fiat: [] as never[] };
}

async function ownedSettlement(db: Db, accountId: string, merchantId: string, id: string) {
  await ownedMerchant(db, accountId, merchantId);
  const s = await repo.findSettlement(db, merchantId, id);
  if (!s) throw new AppError('settlement_not_found');
  return s;
}

/** The new destination of a settlement, parsed and checked like a new settlement's; nothing stored yet. */
export async function checkNewDestination(
  db: Db,
  chainWork: ChainWork,
  accountId: string,
  merchantId: string,
  id: string,
  destination: string,
): Promise<Checked<string>> {
  const owned = await ownership(() => ownedSettlement(db, accountId, merchantId, id));
  if ('refused' in owned) return owned;
  const s = owned.ok;
  let d;
  try {
    d = parseAccountId(destination);
  } catch (e) {
    throw new AppError('params_validation', undefined, [{ field: '/destination', message: (e as CaipError).message }]);
  }
  if (d.chain.id !== s.chainId) {
    throw new AppError('params_validation', undefined, [
      { field: '/destination', message: `must be on the asset's chain ${s.chainId}, not ${d.chain.id}` },
    ]);
  }
  // The asset's own fields are the settlement's: a refusal of them names the destination, the only field sent.
  await checkDestinations(db, chainWork, [{ a: parseAssetId(s.asset), d, at: '' }]).catch((e) => {
    if (e instanceof AppError && e.issues) for (const i of e.issues) i.field = '/destination';
    throw e;
  });
  return { ok: d.id };
}

/**
 * Stores the destination checkNewDestination answered. Settlements of the merchant's payments in the asset that
 * were held after their attempts are sent again, to it (an operator's hold stays).
 */
export async function changeDestination(db: Db, accountId: string, merchantId: string, id: string, check: Checked<string>) {
  const destination = checked(check);
  const s = await ownedSettlement(db, accountId, merchantId, id);
  await inTransaction(db, async (trx) => {
    await repo.updateDestination(trx, id, destination);
    await releaseHeldSettlements(trx, merchantId, s.asset);
  });
  return { id, asset: s.asset, destination };
}

export async function removeSettlement(db: Db, accountId: string, merchantId: string, id: string) {
  await ownedSettlement(db, accountId, merchantId, id);
  await repo.deleteSettlement(db, merchantId, id);
  return { id, deleted: true as const };
}
