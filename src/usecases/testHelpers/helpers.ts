import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import type { ChainWork } from '../../domain/chain';
import { effectiveStatus } from '../../domain/payment';
import { findPayment, type PaymentWithAsset } from '../../db/payments';
import { expiryNow, minedTransaction, onlyTransactionsOf, requestStall } from '../../db/testHelpersRepo';
import { expireOverduePayments } from '../payments/expiry';
import { testHelperChain, type Principal } from './gate';

// The test helpers (docs/testmode.md, "Test helpers"): each makes one rare event happen on a development chain, or in
// the database where the event is the service's own (an expiry), and leaves what follows to the real code paths.

export interface TestHelperDeps {
  db: Db;
  chainWork: ChainWork;
  caller: Principal;
}

/** The caller's payment and the development chain it may drive for it (gate.ts). */
async function testPayment(deps: TestHelperDeps, paymentId: string) {
  const found = await findPayment(deps.db, paymentId);
  const own = found && found.payment.accountId === deps.caller.accountId ? found : null;
  const dev = testHelperChain(
    deps.caller,
    deps.chainWork,
    own ? { chainId: own.asset?.chainId ?? null } : new AppError('payment_not_found'),
  );
  return { found: own!, dev };
}

const reread = async (db: Db, paymentId: string): Promise<PaymentWithAsset> => (await findPayment(db, paymentId))!;

/** The block holding the payment's mined, not yet final, transaction is dropped; the relayer's reorg handling follows. */
export async function reorgTestPayment(deps: TestHelperDeps, paymentId: string): Promise<PaymentWithAsset> {
  const { dev } = await testPayment(deps, paymentId);
  const tx = await minedTransaction(deps.db, paymentId);
  // The payment's relayer key signs for every account: its other transactions in the dropped blocks, and its open ones
  // after them, would leave the chain with this one, and what the chain then does before they are broadcast again
  // (another sender's transfer mined ahead of them) changes their outcome. Only the caller's own may go.
  const outcome = tx
    ? await dev.reorgOut(tx.hash, (sender, nonces) => onlyTransactionsOf(deps.db, tx.chainId, sender, nonces, deps.caller.accountId))
    : 'not_mined';
  if (outcome === 'refused')
    throw new AppError(
      'forbidden',
      "The blocks a reorg would drop hold transactions of the payment's relayer key for other accounts (or for this instance): a test helper may not take those out of the chain.",
    );
  if (outcome === 'final')
    throw new AppError(
      'invalid_state',
      "The payment's transaction is at the confirmation depth already: a reorg that deep is what the depth rules out.",
    );
  if (outcome === 'not_mined')
    throw new AppError('invalid_state', 'The payment has no transaction mined and short of the confirmation depth to reorg out.');
  return reread(deps.db, paymentId);
}

/** Payments that may send another transaction: a collect or direct transfer, a settlement or a refund. */
const SENDS_MORE = new Set(['requires_action', 'processing', 'succeeded']);

/** The next transaction the relayer signs for the payment stalls (stall.ts applies it). */
export async function stallTestPayment(deps: TestHelperDeps, paymentId: string): Promise<PaymentWithAsset> {
  const { found } = await testPayment(deps, paymentId);
  const status = effectiveStatus(found.payment);
  if (!SENDS_MORE.has(status)) throw new AppError('invalid_state', `A ${status} payment sends no more transactions.`);
  await requestStall(deps.db, paymentId);
  return found;
}

/** The payment's expiry is now, and the expiry sweep runs (events, webhooks and long-polls as for any expiry). */
export async function expireTestPayment(deps: TestHelperDeps, paymentId: string): Promise<PaymentWithAsset> {
  const { found } = await testPayment(deps, paymentId);
  if (!(await expiryNow(deps.db, paymentId)))
    throw new AppError('invalid_state', `A ${effectiveStatus(found.payment)} payment cannot expire: only one in requires_action does.`);
  await expireOverduePayments(deps.db);
  return reread(deps.db, paymentId);
}
