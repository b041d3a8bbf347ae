import type { LimitsConfig } from '../../config/limits';
import { inTransaction, type Db } from '../../db/knex';
import { insertOptions, liveQuotes, paymentLiveQuotes, purgeExpiredOptions, type StoredOption, trimOptions } from '../../db/optionsRepo';
import { AppError } from '../../domain/errors';

// How many quotes a payment holds (docs/limits.md). Every call quotes afresh and stores what it offered, so without
// caps a payment link is a way to write rows at the request rate: fresh accounts evade the cap per account.

const refused = (message: string, retryS: number) =>
  new AppError('rate_limited', `${message}: use one, or retry after ${retryS} s.`, undefined, { 'Retry-After': String(retryS) });

/**
 * Quotes are kept per buyer account and caller: each account of a payment holds at most `optionsPerPayment` quotes
 * still valid that one caller asked for (more than that only when one call offers more), and those are never purged,
 * whoever asks for more. A call that would go beyond is 429 rate_limited until that caller's first quote for the
 * account expires; other callers, the buyer's own wallet among them, are not held up by it. Returns how many of each
 * account's newest options the purge keeps.
 */
async function accountRoom(db: Db, paymentId: string, offered: StoredOption[], accounts: string[], callerId: string, max: number) {
  const live = await liveQuotes(db, paymentId, accounts, callerId);
  let keep = max;
  for (const account of accounts) {
    const adding = offered.filter((o) => o.account === account).length;
    keep = Math.max(keep, adding);
    const held = live.get(account);
    if (held && held.live + adding > max)
      throw refused(
        `${account} already holds ${held.live} valid quotes of this caller for this payment (at most ${max})`,
        Math.max(1, held.freeInS),
      );
  }
  return keep;
}

/**
 * The payment as a whole. Its cap bounds the rows one link can hold, whoever asks. A cap only on the whole would let
 * one caller fill it and so shut the buyer's own wallet out, which is another caller (its own credential, or the pay
 * page from the buyer's address); so each caller may also hold only a share of it, and filling a payment takes
 * several callers at once, each one refreshing its quotes as they expire. A caller's first call is within its share
 * whatever its size (a merchant with many settlement assets), as it is for an account.
 */
async function paymentRoom(db: Db, paymentId: string, adding: number, callerId: string, limits: LimitsConfig) {
  const q = await paymentLiveQuotes(db, paymentId, callerId);
  const share = limits.optionsLivePerPaymentCaller;
  if (q.own > 0 && q.own + adding > share)
    throw refused(`This caller already holds ${q.own} valid quotes for this payment (at most ${share})`, Math.max(1, q.ownFreeInS));
  const max = limits.optionsLivePerPayment;
  if (q.live + adding > max) throw refused(`This payment already holds ${q.live} valid quotes (at most ${max})`, Math.max(1, q.freeInS));
}

/**
 * Stores a call's quotes within the caps, or none of them (429), and purges the accounts' expired ones beyond those
 * kept. One transaction under the payment's quote lock, so that concurrent calls cannot both pass a cap.
 */
export function storeQuotes(
  db: Db,
  limits: LimitsConfig,
  offered: StoredOption[],
  quote: { paymentId: string; callerId: string; collectScope: Buffer | null },
): Promise<void> {
  const { paymentId, callerId } = quote;
  const accounts = [...new Set(offered.map((o) => o.account))];
  if (!offered.length) return Promise.resolve();
  return inTransaction(db, async (trx) => {
    const keep = await accountRoom(trx, paymentId, offered, accounts, callerId, limits.optionsPerPayment);
    await paymentRoom(trx, paymentId, offered.length, callerId, limits);
    await insertOptions(trx, offered, callerId, quote.collectScope);
    await trimOptions(trx, paymentId, accounts, keep);
  });
}

const PURGE_BATCH = 500;
const PURGE_BATCHES_PER_TICK = 20;

/**
 * Deletes expired quotes (purgeExpiredOptions says which stay), a batch at a time and a bounded number of batches
 * per sweep, so that a backlog is worked off over several ticks without one long transaction; says how many.
 */
export async function purgeExpiredQuotes(db: Db, limits: Pick<LimitsConfig, 'optionsPurgeAfterS'>): Promise<number> {
  let total = 0;
  for (let i = 0; i < PURGE_BATCHES_PER_TICK; i++) {
    const n = await purgeExpiredOptions(db, PURGE_BATCH, limits.optionsPurgeAfterS);
    total += n;
    if (n < PURGE_BATCH) break;
  }
  return total;
}
