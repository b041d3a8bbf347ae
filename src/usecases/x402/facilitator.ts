import { inTransaction, type Db } from '../../db/knex';
import type { Config } from '../../config';
import { getAddress } from 'viem';
import type { ChainWork } from '../../domain/chain';
import { AppError } from '../../domain/errors';
import { modeOfScope, ownedBy } from '../../domain/mode';
import { newId } from '../../domain/ids';
import { isFinal, MAX_POLL_MS } from '../../domain/payment';
import {
  chainReason,
  EXACT,
  PAYMENT_IDENTIFIER,
  paymentIdentifierOf,
  REASON,
  X402_VERSION,
  eip3009Payload,
  type Refusal,
} from '../../domain/x402';
import type { ChangeHub } from '../../events/changeHub';
import * as repo from '../../db/payments';
import { insertOptions } from '../../db/optionsRepo';
import { findSettlement, recordSettlement, settlementOf, standingTransfer, type X402Settlement } from '../../db/x402Repo';
import { revertedTransfer } from '../../db/revertsRepo';
import { askThrough, payeeOf, x402Chain, x402Terms, type Checked, type Termed, type X402Request } from './check';
import type { ConfirmChecks } from '../gateway/confirmChecks';
import { needsBuyerData, runRules } from '../gateway/confirmRules';
import { createPayment, pollStatus } from '../payments/payments';
import { checkRevertBudget, revertScopeOf } from '../gateway/revertBudget';

// The x402 v2 facilitator (docs/x402.md): /supported, /verify, /settle on the relayer every payment uses. Each
// settlement is a payment of the merchant `payTo` names (created and confirmed in one transaction, so it is in
// lists, events and webhooks like any other), submitted and confirmed by the relayer at the account's depth. One
// authorization is settled once: a repeated or racing settle of it, or of the same payment identifier, answers
// the first settlement (x402_settlements is unique on both). A settlement whose transfer reverts costs the relayer
// its gas, so verify and settle refuse, as confirm does, once the payer, the settling key or the account has used up
// its budget of reverted submissions (src/usecases/gateway/revertBudget.ts), with x402's `invalid_transaction_state`.

/** How long settle waits for its settlement to be final before answering `settlement_pending`. */
export const SETTLE_WAIT_MS = 20_000;

export function supported(chainWork: ChainWork) {
  const chains = chainWork.settlingChains();
  return {
    kinds: chains.map((c) => ({ x402Version: X402_VERSION, scheme: EXACT, network: c.chainId })),
    extensions: [PAYMENT_IDENTIFIER],
    signers: { 'eip155:*': [...new Set(chains.flatMap((c) => c.relayers))] },
  };
}

/** Who answers for a settlement's reverts: the settling key serves many payers, so it is a shared credential (revertBudget.ts). */
const revertScope = (accountId: string, payer: string, callerKeyId: string) =>
  revertScopeOf(accountId, payer, { keyId: callerKeyId, keyType: 'x402' });

/** The refusal when the scope's budget of reverted submissions is used up, else null. `lock`: in the settling transaction. */
async function overBudget(db: Db, config: Config, scope: ReturnType<typeof revertScope>, lock = false): Promise<Refusal | null> {
  try {
    await checkRevertBudget(db, config.revertBudget, scope, lock);
    return null;
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'too_many_reverts') throw e;
    return { reason: REASON.transactionState, message: `too_many_reverts: ${e.message}` };
  }
}

/** The budget was found used up in the settling transaction, which is rolled back. */
class OverBudget extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** What verify and settle decide before anything is written, outside any database transaction (the handlers' `prepare`). */
export type X402Decision = { ok: false; refusal: Refusal; payer?: string } | { ok: true; checked: Extract<Checked, { ok: true }> };

export interface X402Deps {
  db: Db;
  config: Config;
  chainWork: ChainWork;
  checks: ConfirmChecks;
}

/**
 * The rulebook (confirmRules.ts) for a payment x402 creates: it is new, so open, and funds no refund; its terms, the
 * buyer data its amount needs (x402 carries none), the budget of reverted submissions, then the chain.
 */
async function decideX402(deps: X402Deps, callerKeyId: string, accountId: string, req: X402Request): Promise<X402Decision> {
  const { db, config, chainWork } = deps;
  const r = req.paymentRequirements;
  let t!: Termed;
  let decision: X402Decision | undefined;
  const refuse = (refusal: Refusal) => {
    decision = { ok: false, refusal, ...(t?.payer ? { payer: t.payer } : {}) };
    return 'stop' as const;
  };
  await runRules({
    state: () => undefined,
    quote: async () => {
      t = await x402Terms(db, chainWork, modeOfScope(accountId), req, Math.floor(Date.now() / 1000), (asset) =>
        payeeOf(db, config.dataKeys, chainWork, accountId, asset, r),
      );
      return t.ok ? undefined : refuse(t.refusal);
    },
    funding: () => undefined,
    buyerData: async () => {
      if (!t.ok || !(await needsBuyerData(db, config, { accountId, amountMinor: t.amountMinor }))) return;
      return refuse({
        reason: REASON.requirements,
        message: "collect_data_required: this amount needs the buyer's details; pay from a wallet",
      });
    },
    revertBudget: async () => {
      const over = t.ok ? await overBudget(db, config, revertScope(accountId, t.payer, callerKeyId)) : null;
      return over ? refuse(over) : undefined;
    },
    chain: async () => {
      const c = await x402Chain(askThrough(deps.checks, callerKeyId), t);
      if (!c.ok) return refuse(c.refusal);
      decision = { ok: true, checked: c };
    },
  });
  return decision!;
}

export async function verify(deps: X402Deps, callerKeyId: string, accountId: string, req: X402Request) {
  const d = await decideX402(deps, callerKeyId, accountId, req);
  if (!d.ok)
    return { isValid: false, invalidReason: d.refusal.reason, invalidMessage: d.refusal.message, ...(d.payer ? { payer: d.payer } : {}) };
  return { isValid: true, payer: d.checked.payer };
}

/** The authorization a request settles, as x402_settlements keys it; null when the payload holds none. */
export function settlementKey(accountId: string, req: X402Request) {
  const parsed = eip3009Payload(req.paymentPayload);
  if (!parsed || !/^0x[0-9a-fA-F]{40}$/.test(req.paymentRequirements.asset)) return null;
  const a = parsed.authorization;
  return {
    accountId,
    chainId: req.paymentRequirements.network,
    token: getAddress(req.paymentRequirements.asset),
    payer: a.from,
    nonce: a.nonce,
    paymentIdentifier: paymentIdentifierOf(req.paymentPayload),
  };
}

/** The authorization was recorded by an earlier or concurrent settlement: the transaction is rolled back. */
export class AlreadySettled extends Error {}

type Key = NonNullable<ReturnType<typeof settlementKey>>;

/**
 * In the caller's transaction: the payment's option (the signed TransferWithAuthorization, as checked), the
 * settlement's record (AlreadySettled when the authorization or payment identifier has one), and the confirm
 * transition (false when the payment was not open). The caller starts the submission once it commits.
 */
export async function confirmAuthorization(trx: Db, paymentId: string, c: Extract<Checked, { ok: true }>, key: Key, callerKeyId: string) {
  const a = c.authorization;
  const optionId = newId('opt');
  const buyerAccount = `${c.asset.chainId}:${a.from}`;
  const option = {
    id: optionId,
    paymentId,
    account: buyerAccount,
    asset: c.asset.id,
    chainId: c.asset.chainId,
    tokenAmount: a.value,
    typedData: c.typedData,
    nonce: a.nonce,
    collectData: false,
    collectedData: null,
    expiresAt: new Date(Number(a.validBefore) * 1000),
    relayer: c.payee.relayer,
    permitTo: null,
    depositSignature: c.signDeposit ? await c.signDeposit() : null,
  };
  await insertOptions(trx, [option], callerKeyId, null);
  if (!(await recordSettlement(trx, { ...key, paymentId }))) throw new AlreadySettled();
  const confirmed = { optionId, tokenAsset: c.asset.id, tokenAmount: a.value, chainId: c.asset.chainId, buyerAccount, txNonce: a.nonce };
  const callerInfo = { keyId: callerKeyId, sdkName: 'x402' };
  const done = await repo.applyTransition(trx, paymentId, 'confirm', {
    confirmed: { ...confirmed, signature: c.signature, callerInfo, collectedData: null },
  });
  return done !== undefined;
}

/** The decision before settling; undefined when the authorization was settled before (the settlement answers it). */
export async function decideSettle(deps: X402Deps, callerKeyId: string, accountId: string, req: X402Request) {
  const key = settlementKey(accountId, req);
  if (key && (await findSettlement(deps.db, key))) return undefined;
  return decideX402(deps, callerKeyId, accountId, req);
}

/** Settles what `decideX402` decided (undefined: the request was answered from a stored settlement, so it decided nothing). */
export async function settle(
  deps: X402Deps & { hub: ChangeHub },
  callerKeyId: string,
  accountId: string,
  req: X402Request,
  decided: X402Decision | undefined,
  waitMs: number,
) {
  const { db, config, chainWork, hub } = deps;
  const network = req.paymentRequirements.network;
  const key = settlementKey(accountId, req);
  const earlier = key && (await findSettlement(db, key));
  if (earlier) return earlierAnswer(db, hub, earlier, key, waitMs);
  const d = decided ?? (await decideX402(deps, callerKeyId, accountId, req));
  const refused = (refusal: Refusal) => ({
    success: false,
    errorReason: refusal.reason,
    errorMessage: refusal.message,
    transaction: '',
    network,
    ...((d.ok ? d.checked.payer : d.payer) ? { payer: d.ok ? d.checked.payer : d.payer } : {}),
  });
  if (!d.ok) return refused(d.refusal);
  const c = d.checked;
  if (!key) return refused({ reason: REASON.payloadType, message: 'no EIP-3009 authorization' });
  const a = c.authorization;
  const scope = revertScope(accountId, a.from, callerKeyId);
  const served = chainWork.settlingChains(modeOfScope(accountId)).map((x) => x.chainId);
  let paymentId: string;
  try {
    paymentId = await inTransaction(db, async (trx) => {
      // Decided one settle (or confirm) of the payer, key or account at a time: those at once never pass it together.
      const late = await overBudget(trx, config, scope, true);
      if (late) throw new OverBudget(late);
      const reference = req.paymentPayload.resource?.url?.slice(0, 255) || `x402:${a.nonce}`;
      const amount = { unit: `iso4217/${c.asset.pegCurrency}`, value: c.amountMinor.toString() };
      const payment = await createPayment(trx, config, accountId, c.payee.merchantId, { referenceId: reference, amount }, served);
      await confirmAuthorization(trx, payment.id, c, key, callerKeyId);
      return payment.id;
    });
  } catch (e) {
    if (e instanceof OverBudget) return refused(e.refusal);
    if (!(e instanceof AlreadySettled)) throw e;
    return earlierAnswer(db, hub, (await findSettlement(db, key))!, key, waitMs);
  }
  await chainWork.startSubmit(paymentId);
  return settlementAnswer(db, hub, (await settlementOf(db, paymentId))!, waitMs);
}

/**
 * A request for an authorization settled before answers that settlement; one settled by another account is used; a
 * payment identifier reused for another authorization is refused.
 */
function earlierAnswer(db: Db, hub: ChangeHub, s: X402Settlement, key: Key, waitMs: number) {
  const same = s.nonce === key.nonce && s.payer === key.payer && s.chainId === key.chainId && s.token === key.token;
  if (!same) throw new AppError('idempotency_conflict', 'This payment identifier was settled with another authorization.');
  if (s.accountId === key.accountId) return settlementAnswer(db, hub, s, waitMs);
  const message = 'this authorization was settled for another account';
  return Promise.resolve({
    success: false,
    errorReason: REASON.nonceUsed,
    errorMessage: message,
    transaction: '',
    network: s.chainId,
    payer: s.payer,
  });
}

/** A settlement of the caller's account, waited for up to `waitMs` (GET /x402/settlements/{id}). */
export async function settlementStatus(db: Db, hub: ChangeHub, accountId: string, id: string, waitMs: number) {
  const missing = () => new AppError('not_found', 'No x402 settlement has this id.');
  const s = ownedBy(await settlementOf(db, id), accountId, missing, 'This settlement belongs to another account.');
  return settlementAnswer(db, hub, s, waitMs);
}

/** The settlement's x402 answer once its payment is final, or `settlement_pending` when `waitMs` runs out first. */
export async function settlementAnswer(db: Db, hub: ChangeHub, s: X402Settlement, waitMs: number) {
  const deadline = Date.now() + Math.min(waitMs, MAX_POLL_MS);
  const load = async () => (await repo.findPayment(db, s.paymentId))!;
  let { payment: p } = await load();
  while (!isFinal(p.status) && Date.now() < deadline)
    ({ payment: p } = await pollStatus(db, hub, s.paymentId, load, deadline - Date.now()));
  const base = { payer: s.payer, network: s.chainId, paymentId: s.paymentId, amount: p.tokenAmount?.toString() };
  if (p.status === 'succeeded') return { success: true, transaction: p.txHash ?? '', ...base };
  if (p.status === 'failed')
    return {
      success: false,
      errorReason: p.failureCode ? chainReason(p.failureCode) : REASON.transactionFailed,
      errorMessage: `the payment failed: ${p.failureCode}`,
      // As x402's facilitator answers a failed receipt: the transaction that reverted, when one was mined.
      transaction: p.txHash ?? (await revertedTransfer(db, s.paymentId)) ?? '',
      ...base,
    };
  // Once the relayer has signed the transfer, its hash: x402's resource servers (@x402/core) settle again, once, on a
  // settlement_pending that carries one, and that second settle waits for this same settlement (earlierAnswer).
  return {
    success: false,
    errorReason: REASON.pending,
    errorMessage: `not final yet: GET /x402/settlements/${s.paymentId}`,
    transaction: p.txHash ?? (await standingTransfer(db, s.paymentId)) ?? '',
    ...base,
  };
}
