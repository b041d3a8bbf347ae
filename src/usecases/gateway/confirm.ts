import { inTransaction, type Db } from '../../db/knex';
import type { Config } from '../../config';
import { getAddress, type Hex } from 'viem';
import type { ChainWork } from '../../domain/chain';
import { parseAccountId } from '../../domain/caip';
import { AppError } from '../../domain/errors';
import type { ConfirmedOption } from '../../domain/payment';
import { seal } from '../../domain/sealed';
import { nativeQuoteOf } from '../../domain/nativeQuote';
import * as repo from '../../db/payments';
import { isOptionReferenceViolation, StoredOption } from '../../db/optionsRepo';
import { PAYMENT_DATA, sealedAt } from '../../db/sealedColumnsRepo';
import type { ConfirmChecks } from './confirmChecks';
import { chainCheck, checkBudget, fundingAssetOf, requireFundingTerms, runRules } from './confirmRules';
import { checkQuote, openedOptionData, openOption, validCollected } from './options';
import { gatewayPayment, notOpen } from './payments';
import { checkRevertBudget, revertScopeOf, type RevertCaller } from './revertBudget';

// Confirm: everything is verified before anything moves, in two steps. Before the request's transaction (the
// handler's `prepare`, which holds no database connection while the chain answers): the rulebook of every door
// (confirmRules.ts: state, the option's quote and results, the funding rule, buyer data, the budget of reverted
// submissions, then the signature and the submission simulated as the relayer will send it). An authorization that
// cannot succeed is refused with its code and the payment stays payable. Then, in the transaction (under an
// Idempotency-Key, the one that stores the answer), one conditional UPDATE decides. Racing or repeated confirms of
// the same option all answer the payment's state; only the winner enqueues chain work.

export interface ConfirmInput {
  optionId: string;
  results: { type: string; data: string[] }[];
  collectedData?: unknown;
}

export interface CallerInfo {
  keyId: string;
  keyType: string;
  appId?: string;
  sdkName?: string;
  sdkVersion?: string;
  sdkPlatform?: string;
}

/** The payment after this option was (or had already been) confirmed; else the refusal. */
async function alreadyConfirmed(db: Db, config: Config, paymentId: string, opt: StoredOption): Promise<repo.PaymentWithAsset> {
  const now = await gatewayPayment(db, config.publicBaseUrl, paymentId);
  if (now.payment.optionId === opt.id && now.payment.status !== 'requires_action') return now;
  throw notOpen(now.payment);
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
/** Refusals a confirm a moment later may pass (an approve not mined yet, a transaction the node does not show yet). */
const RETRY_SOON = new Set<string>(['approval_pending', 'transaction_not_found']);

/**
 * The signature (the last result), and a Permit2 option's approve transaction hash (a result before it), from the
 * results in the actions' order: one walletRpc entry per action, or all packed into one entry.
 */
export function resultsOf(input: ConfirmInput, permit: boolean): { signature: string; approveTx?: `0x${string}` } {
  const values = input.results.every((r) => r.type === 'walletRpc') ? input.results.flatMap((r) => r.data) : [];
  const signature = values.at(-1);
  const before = values.slice(0, -1);
  const approveOk = permit && before.length === 1 && TX_HASH.test(before[0]);
  if (signature === undefined || (before.length && !approveOk)) {
    const expected = permit ? "the approve's transaction hash if it was sent, then the signature" : 'the signature';
    throw new AppError('params_validation', undefined, [
      { field: '/results', message: `must hold the walletRpc results of the option's actions, in order: ${expected}` },
    ]);
  }
  return before.length ? { signature, approveTx: before[0] as `0x${string}` } : { signature };
}

/** What the checks before the transaction found. */
export type CheckedConfirm =
  /** The payment was no longer open: the transaction answers its state. */
  { open: false } | { open: true; optionId: string; signature: Hex; collectedJson: string | null };

/** The checks before the transaction (not stored under an Idempotency-Key: a retry checks again). */
export async function checkConfirm(
  db: Db,
  config: Config,
  checks: ConfirmChecks,
  rawId: string,
  input: ConfirmInput,
  caller: RevertCaller,
): Promise<CheckedConfirm> {
  const { pw, opt } = await openOption(db, config, rawId, input.optionId);
  const p = pw.payment;
  let given!: ReturnType<typeof resultsOf>;
  let collectedJson: string | null = null;
  let signature!: Hex;
  const ran = await runRules({
    state: () => (p.status === 'requires_action' ? undefined : 'stop'),
    quote: () => {
      confirmableQuote(opt);
      given = resultsOf(input, opt.permitTo !== null);
      if (!opt.relayer) throw new AppError('quote_expired', 'This option predates on-chain settlement: ask for options again.');
    },
    funding: async () => requireFundingTerms(await fundingAssetOf(db, p.id), { asset: opt.asset, toCollector: paysRelayer(opt) }),
    buyerData: () => {
      if (!opt.collectData) return;
      collectedJson =
        input.collectedData != null // null: none sent, as in the hosted contract
          ? JSON.stringify(validCollected(input.collectedData, '/collectedData'))
          : openedOptionData(config, opt);
      if (collectedJson === null) throw new AppError('collect_data_required');
    },
    revertBudget: () => checkBudget(db, config, p.accountId, buyerOf(opt), caller),
    chain: async () => {
      const permit =
        opt.permitTo === null ? undefined : { owner: parseAccountId(opt.account).address, to: opt.permitTo, approveTx: given.approveTx };
      const check = await chainCheck(checks, { ...opt, relayer: opt.relayer! }, given.signature, caller.keyId, {
        permit,
        rememberPass: true,
      });
      // The catalogue's message; an approve not mined yet is worth retrying at once.
      if (!check.ok)
        throw new AppError(check.refusal, undefined, undefined, RETRY_SOON.has(check.refusal) ? { 'Retry-After': '2' } : undefined);
      signature = check.signature;
    },
  });
  if (!ran) return { open: false };
  return { open: true, optionId: opt.id, signature, collectedJson };
}

/**
 * The quote's expiry as confirm judges it (409 quote_expired). A native option's quote is bounded on the chain
 * instead: the router refuses its transaction after the deadline, so one mined in time confirms after the expiry.
 */
function confirmableQuote(opt: StoredOption & { asOf: Date }): void {
  if (nativeQuoteOf(opt.typedData) === null) checkQuote(opt);
}

/** Whether the option's tokens go to the relayer that submits it (collector mode, or a refund's funding), not to a merchant. */
function paysRelayer(opt: StoredOption): boolean {
  const to = opt.permitTo ?? (JSON.parse(opt.typedData) as { message: { to: string } }).message.to;
  return opt.relayer !== null && getAddress(to) === getAddress(opt.relayer);
}

/** The transition, in the request's transaction, with what `checkConfirm` found. */
export async function confirmPayment(
  db: Db,
  config: Config,
  chainWork: ChainWork,
  rawId: string,
  input: ConfirmInput,
  caller: CallerInfo,
  checked: CheckedConfirm,
) {
  const { pw, opt } = await openOption(db, config, rawId, input.optionId);
  const paymentId = pw.payment.id;
  if (pw.payment.status !== 'requires_action') return alreadyConfirmed(db, config, paymentId, opt);
  confirmableQuote(opt);
  // An open payment was open when checked too (no state leads back to requires_action), with this very input.
  if (!checked.open || checked.optionId !== opt.id) throw new Error('confirm: the checks did not run for this option');
  if (opt.collectData && checked.collectedJson === null) throw new AppError('collect_data_required');
  const collected = checked.collectedJson === null ? null : seal(config.dataKeys, checked.collectedJson, sealedAt(PAYMENT_DATA, paymentId));
  // The budget again, under its locks until the transition commits: confirms at once are counted one by one.
  const done = await inTransaction(db, async (trx) => {
    await checkRevertBudget(trx, config.revertBudget, revertScopeOf(pw.payment.accountId, buyerOf(opt), caller), true);
    return confirmTransition(trx, paymentId, {
      optionId: opt.id,
      tokenAsset: opt.asset,
      tokenAmount: opt.tokenAmount,
      chainId: opt.chainId,
      buyerAccount: opt.account,
      txNonce: opt.nonce,
      signature: checked.signature,
      callerInfo: caller,
      collectedData: collected,
    });
  });
  if (!done) return alreadyConfirmed(db, config, paymentId, opt);
  await chainWork.startSubmit(paymentId);
  return done;
}

const buyerOf = (opt: StoredOption) => opt.account.split(':')[2] ?? '';

/**
 * The transition to processing: it refers to its option by a foreign key, so an option purged since it was read
 * (an expired quote) makes it fail, never a payment processing without the option it would be submitted from.
 */
async function confirmTransition(db: Db, paymentId: string, confirmed: ConfirmedOption) {
  try {
    return await repo.applyTransition(db, paymentId, 'confirm', { confirmed });
  } catch (e) {
    if (isOptionReferenceViolation(e)) throw new AppError('option_not_found', 'The option is no longer quoted: ask for options again.');
    throw e;
  }
}
