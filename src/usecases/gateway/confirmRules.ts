import { getAddress } from 'viem';
import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import type { AuthorizationCheck } from '../../domain/chain';
import { AppError } from '../../domain/errors';
import type { Payment } from '../../domain/payment';
import { collectThreshold } from '../../db/accountsRepo';
import { fundedRefundAsset } from '../../db/refundsRepo';
import { DEFAULT_COLLECT_THRESHOLD_MINOR } from '../../domain/collectData';
import type { ConfirmChecks } from './confirmChecks';
import { notOpen } from './payments';
import { checkRevertBudget, revertScopeOf, type RevertCaller } from './revertBudget';

// One rulebook for every door into a confirm: the gateway's confirm and the hosted pay page (gateway/confirm.ts),
// the x402 payment link (x402/paymentLink.ts), x402 verify and settle (x402.ts). Each door runs CONFIRM_RULES in their
// order through `runRules`, whose argument must name a step for every rule, so a new door cannot leave one out
// without saying so in its own code; a door may check more inside a step. The rules themselves are below, written
// once. tests/integration/confirmDoors.own.test.ts holds each rule at each door.

const CONFIRM_RULES = ['state', 'quote', 'funding', 'buyerData', 'revertBudget', 'chain'] as const;
export type ConfirmRule = (typeof CONFIRM_RULES)[number];

/** A step that answers 'stop' ends the sequence there (the door answers what it found, e.g. the payment's state). */
export type DoorSteps = Record<ConfirmRule, () => Promise<void | 'stop'> | void | 'stop'>;

/** Runs the door's steps in the rulebook's order; false when a step stopped it. */
export async function runRules(steps: DoorSteps): Promise<boolean> {
  for (const rule of CONFIRM_RULES) if ((await steps[rule]()) === 'stop') return false;
  return true;
}

/** state: only a payment waiting for its buyer is confirmed (409 invalid_state, 410 payment_expired). */
export function requireOpen(p: Payment): void {
  if (p.status !== 'requires_action') throw notOpen(p);
}

/**
 * funding: a refund's funding payment (docs/ledger.md "Funding") is paid only in the refund's token, to a collector
 * (never a merchant's own destination): the ledger earmarks what a collector received for the refund per asset.
 * Null when the payment funds no refund.
 */
export const fundingAssetOf = (db: Db, paymentId: string): Promise<string | null> => fundedRefundAsset(db, paymentId);

export function requireFundingTerms(fundsAsset: string | null, paid: { asset: string; toCollector: boolean }): void {
  if (fundsAsset === null) return;
  if (paid.asset !== fundsAsset || !paid.toCollector)
    throw new AppError('invalid_state', `This payment funds a refund: it is paid only in ${fundsAsset}, to a collector.`);
}

/** buyerData: whether a payment of this account and amount needs the buyer's data (the account's threshold, or the default). */
export async function needsBuyerData(db: Db, config: Config, p: Pick<Payment, 'accountId' | 'amountMinor'>): Promise<boolean> {
  const threshold = (await collectThreshold(db, p.accountId)) ?? config.collectDataThresholdMinor ?? DEFAULT_COLLECT_THRESHOLD_MINOR;
  return p.amountMinor >= threshold;
}

/** buyerData at a door that cannot carry it (x402): a payment that needs it is refused, 400 collect_data_required. */
export async function refuseWithoutBuyerData(db: Db, config: Config, p: Pick<Payment, 'accountId' | 'amountMinor'>): Promise<void> {
  if (await needsBuyerData(db, config, p))
    throw new AppError('collect_data_required', "This payment needs the buyer's details, which x402 does not carry: pay it from a wallet.");
}

/** revertBudget: the early check of the budget of reverted submissions; the commit checks again under its locks. */
export const checkBudget = (db: Db, config: Config, accountId: string, buyerAddress: string, caller: RevertCaller) =>
  checkRevertBudget(db, config.revertBudget, revertScopeOf(accountId, buyerAddress, caller));

/** The chain step's question: an authorization (or a permit) checked as the relayer will submit it. */
export interface ChainQuestion {
  /** What the refusal cache and the running checks are keyed by (an option id, or an x402 authorization's). */
  id: string;
  /** What the per-payment limit counts (a payment id, or an x402 authorization's). */
  paymentId: string;
  chainId: string;
  typedData: string;
  relayer: string;
}

/**
 * chain: the signature and the submission simulated, through ConfirmChecks (per-credential and per-payment limits,
 * refusals remembered, the same check running joined), before any database transaction: the caller holds no
 * connection while the node answers.
 */
export function chainCheck(
  checks: ConfirmChecks,
  q: ChainQuestion,
  signature: string,
  credential: string,
  how: Parameters<ConfirmChecks['check']>[3] = {},
): Promise<AuthorizationCheck> {
  return checks.check({ ...q, relayer: getAddress(q.relayer) }, signature, credential, how);
}
