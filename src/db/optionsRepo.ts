import { ASSET_COLUMNS, Asset, assetFromRow } from './assetsRepo';
import { readAt } from './clock';
import { Db, inTransaction, knexOf } from './knex';

// Gateway options exactly as offered (the typed-data string handed to the wallet is what confirm verifies
// against), and the merchant settlements an option can be made from.

export interface StoredOption {
  id: string;
  paymentId: string;
  account: string;
  asset: string;
  chainId: string;
  tokenAmount: bigint;
  typedData: string;
  nonce: string;
  collectData: boolean;
  collectedData: Buffer | null;
  expiresAt: Date;
  /** The relayer key that submits this option's authorization (its `to` in collector mode). */
  relayer: string | null;
  /** Permit2 options: where the permit's tokens go (the relayer in collector mode, else the destination); else null. */
  permitTo: string | null;
  /** x402 paid to a deposit address: that address's signature of its onward authorization (src/domain/x402Deposit.ts). */
  depositSignature?: string | null;
}

/**
 * `quotedBy`: the gateway caller (key or app id) that asked for them; `collectScope`: the SHA-256 of the collect link
 * token of that caller (collectLink.ts).
 */
export async function insertOptions(db: Db, opts: StoredOption[], quotedBy: string, collectScope: Buffer | null): Promise<void> {
  const knex = knexOf(db);
  if (!opts.length) return;
  await knex('payment_options').insert(
    opts.map((o) => ({
      quoted_by: quotedBy,
      collect_scope: collectScope,
      id: o.id,
      payment_id: o.paymentId,
      account: o.account,
      asset: o.asset,
      chain_id: o.chainId,
      token_amount: o.tokenAmount.toString(),
      typed_data: o.typedData,
      nonce: o.nonce,
      collect_data: o.collectData,
      collected_data: o.collectedData,
      expires_at: o.expiresAt,
      relayer: o.relayer,
      permit_to: o.permitTo,
      deposit_signature: o.depositSignature ?? null,
    })),
  );
}

/** The option as stored, and `asOf`: the database's time of the read, which its expiry is judged by. */
export async function findOption(db: Db, id: string): Promise<(StoredOption & { asOf: Date }) | undefined> {
  const knex = knexOf(db);
  const r = await knex('payment_options').where({ id }).first('*', knex.raw('now() AS db_now'));
  return (
    r && {
      asOf: readAt(r),
      id: r.id,
      paymentId: r.payment_id,
      account: r.account,
      asset: r.asset,
      chainId: r.chain_id,
      tokenAmount: BigInt(r.token_amount),
      typedData: r.typed_data,
      nonce: r.nonce,
      collectData: r.collect_data,
      collectedData: r.collected_data,
      expiresAt: r.expires_at,
      relayer: r.relayer ?? null,
      permitTo: r.permit_to ?? null,
    }
  );
}

export async function storeCollected(db: Db, id: string, sealed: Buffer): Promise<void> {
  const knex = knexOf(db);
  await knex('payment_options').where({ id }).update({ collected_data: sealed });
}

/**
 * Settlements a wallet can pay: enabled asset pegged to `currency`, by EIP-3009 (the registry holds its EIP-712
 * domain: assets_eip3009_domain_check) or through Permit2.
 */
export async function payableSettlements(db: Db, merchantId: string, currency: string): Promise<{ asset: Asset; destination: string }[]> {
  const knex = knexOf(db);
  const rows = await knex('crypto_settlements as s')
    .join('assets as a', 'a.id', 's.asset')
    .where({ 's.merchant_id': merchantId, 'a.enabled': true })
    // A chain's own coin pegs to no currency: its price feed prices it in the payment's (src/usecases/gateway/nativeOption.ts).
    .andWhere((q) => q.where('a.peg_currency', currency).orWhere('a.transfer_method', 'native'))
    .orderBy('s.created_at')
    .select('s.destination', ...ASSET_COLUMNS.map((c) => `a.${c} as asset_${c}`));
  return rows.map((r) => ({ asset: assetFromRow(r, 'asset_'), destination: r.destination }));
}

/**
 * Buyer data from the hosted collect page: sealed onto the payment's data-collecting options of the given
 * accounts (all accounts when none are given). Returns how many options now carry it.
 */
/**
 * Stores buyer data on the payment's options of one collect link (`scope`) that collect it (those of
 * `accounts`, or all), each value sealed for its own row by `sealFor`; the number of options written.
 */
export async function storeCollectedForPayment(
  db: Db,
  paymentId: string,
  scope: Buffer,
  accounts: string[],
  sealFor: (optionId: string) => Buffer,
): Promise<number> {
  const knex = knexOf(db);
  const q = knex('payment_options').where({ payment_id: paymentId, collect_scope: scope, collect_data: true });
  if (accounts.length) q.whereIn('account', accounts);
  const ids: string[] = await q.pluck('id');
  if (!ids.length) return 0;
  const { rowCount } = await knex.raw(
    `UPDATE payment_options o SET collected_data = v.data
     FROM (VALUES ${ids.map(() => '(?, ?::bytea)').join(', ')}) AS v(id, data) WHERE o.id = v.id`,
    ids.flatMap((id) => [id, sealFor(id)]),
  );
  return rowCount ?? 0;
}

/** Whether some option of the payment was quoted under this collect link. */
export async function hasCollectScope(db: Db, paymentId: string, scope: Buffer): Promise<boolean> {
  const knex = knexOf(db);
  return Boolean(await knex('payment_options').where({ payment_id: paymentId, collect_scope: scope }).first('id'));
}

/**
 * The latest data each account already gave for this payment under one of the collect link's `scopes` (and
 * the option holding it), so that a fresh quote for the same caller need not ask again.
 */
export async function collectedByAccount(
  db: Db,
  paymentId: string,
  scopes: Buffer[],
  accounts: string[],
): Promise<Map<string, { optionId: string; sealed: Buffer }>> {
  const knex = knexOf(db);
  const rows: { id: string; account: string; collected_data: Buffer }[] = await knex('payment_options')
    .distinctOn('account')
    .where({ payment_id: paymentId })
    .whereIn('collect_scope', scopes)
    .whereIn('account', accounts)
    .whereNotNull('collected_data')
    .orderBy([{ column: 'account' }, { column: 'created_at', order: 'desc' }])
    .select('id', 'account', 'collected_data');
  return new Map(rows.map((r) => [r.account, { optionId: r.id, sealed: r.collected_data }]));
}

/**
 * The foreign key from payments.option_id (migration 20261202091100) refused a statement: a payment cannot refer to
 * an option that is gone, and an option a payment refers to cannot go.
 */
export function isOptionReferenceViolation(e: unknown): boolean {
  const { code, constraint } = e as { code?: string; constraint?: string };
  return code === '23503' && constraint === 'payments_option_id_foreign';
}

/**
 * Per buyer account of the payment: its quotes still valid that the caller `quotedBy` asked for, and in how many
 * seconds the first of them expires.
 */
export async function liveQuotes(
  db: Db,
  paymentId: string,
  accounts: string[],
  quotedBy: string,
): Promise<Map<string, { live: number; freeInS: number }>> {
  const knex = knexOf(db);
  const rows: { account: string; live: number; free_in_s: number }[] = await knex('payment_options')
    .where({ payment_id: paymentId, quoted_by: quotedBy })
    .whereIn('account', accounts)
    .andWhere('expires_at', '>', knex.fn.now())
    .groupBy('account')
    .select('account', knex.raw('count(*)::int AS live'), knex.raw('ceil(extract(epoch FROM min(expires_at) - now()))::int AS free_in_s'));
  return new Map(rows.map((r) => [r.account, { live: r.live, freeInS: r.free_in_s }]));
}

/**
 * Purges the given buyer accounts' expired options of a payment beyond the newest `keep` of each account, never
 * a payment's own: a wallet quoting in a loop cannot grow the table without bound, and no quote still valid, nor
 * another account's, goes. Purged options answer 404 option_not_found. An option a confirm refers to meanwhile
 * (the foreign key from payments.option_id) stays, for the next purge to pass over.
 */
export async function trimOptions(db: Db, paymentId: string, accounts: string[], keep: number): Promise<void> {
  if (!accounts.length) return;
  try {
    await inTransaction(db, (trx) =>
      knexOf(trx).raw(
        `DELETE FROM payment_options o WHERE o.id IN (
          SELECT id FROM (
            SELECT id, expires_at, row_number() OVER (PARTITION BY account ORDER BY created_at DESC, id DESC) AS n
            FROM payment_options WHERE payment_id = ? AND account = ANY(?)) r
          WHERE r.n > ? AND r.expires_at <= now())
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = o.payment_id AND p.option_id = o.id)`,
        [paymentId, accounts, keep],
      ),
    );
  } catch (e) {
    if (!isOptionReferenceViolation(e)) throw e;
  }
}

/**
 * The payment's quotes still valid, all callers together and the caller `quotedBy`'s alone, and in how many seconds
 * the first of each expires. Inside a transaction it first takes the payment's quote lock, held until that
 * transaction ends: concurrent quotes of one payment then count each other's rows, so the caps hold exactly.
 */
export async function paymentLiveQuotes(
  db: Db,
  paymentId: string,
  quotedBy: string,
): Promise<{ live: number; freeInS: number; own: number; ownFreeInS: number }> {
  const knex = knexOf(db);
  await knex.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`payment_options:${paymentId}`]);
  const seconds = (at: string) => `coalesce(ceil(extract(epoch FROM ${at} - now())), 0)::int`;
  const {
    rows: [r],
  } = await knex.raw(
    `SELECT count(*)::int AS live, ${seconds('min(expires_at)')} AS free_in_s,
            (count(*) FILTER (WHERE quoted_by = ?))::int AS own, ${seconds('min(expires_at) FILTER (WHERE quoted_by = ?)')} AS own_free_in_s
       FROM payment_options WHERE payment_id = ? AND expires_at > now()`,
    [quotedBy, quotedBy, paymentId],
  );
  return { live: r.live, freeInS: r.free_in_s, own: r.own, ownFreeInS: r.own_free_in_s };
}

/**
 * Deletes up to `limit` options whose quote has expired, oldest expiry first, and says how many. Kept: an option a
 * payment refers to (its confirmed one), and while its payment is open, the newest option of each collect link and
 * the newest of each account and link that carries the buyer's data, so that data given on the collect page after
 * the quote expired still lands and a fresh quote inherits it (collectedByAccount). Rows another transaction holds
 * are skipped, for the next pass.
 */
export async function purgeExpiredOptions(db: Db, limit: number, afterS: number): Promise<number> {
  const newer = `SELECT 1 FROM payment_options n WHERE n.payment_id = o.payment_id AND n.collect_scope = o.collect_scope
                   AND (n.created_at, n.id) > (o.created_at, o.id)`;
  try {
    const { rowCount } = await knexOf(db).raw(
      `DELETE FROM payment_options WHERE id IN (
         SELECT o.id FROM payment_options o JOIN payments p ON p.id = o.payment_id
          WHERE o.expires_at <= now() - make_interval(secs => ?)
            AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.option_id = o.id)
            AND NOT (p.status = 'requires_action' AND o.collect_scope IS NOT NULL AND (
                  NOT EXISTS (${newer})
                  OR (o.collected_data IS NOT NULL AND NOT EXISTS (${newer} AND n.account = o.account AND n.collected_data IS NOT NULL))))
          ORDER BY o.expires_at LIMIT ? FOR UPDATE OF o SKIP LOCKED)`,
      [afterS, limit],
    );
    return rowCount ?? 0;
  } catch (e) {
    // A confirm referred to one of them meanwhile: that batch stays whole, for the next pass to pass over it.
    if (isOptionReferenceViolation(e)) return 0;
    throw e;
  }
}
