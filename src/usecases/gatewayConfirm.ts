import type { Db } from '../db/knex';
import type { Config } from '../config';
import { ChainUnavailable, type ChainWork } from '../domain/chain';
import { AppError } from '../domain/errors';
import { seal } from '../domain/sealed';
import * as repo from '../db/paymentsRepo';
import { StoredOption } from '../db/optionsRepo';
import { PAYMENT_DATA, sealedAt } from '../db/sealedColumnsRepo';
import { checkQuote, openedOptionData, openOption, validCollected } from './gatewayOptions';
import { gatewayPayment, notOpen } from './gatewayPayments';
import { checkRevertBudget } from './revertBudget';

// Confirm: everything is verified before anything moves (the buyer's and the account's budget of reverted
// submissions, the signature, then the submission simulated as the relayer will send it: balance, authorization
// state, validity window); then one conditional UPDATE decides.
// An authorization that cannot succeed is refused with its code and the payment stays payable. Racing or
// repeated confirms of the same option all answer the payment's state; only the winner enqueues chain work.

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

function signatureOf(input: ConfirmInput): string {
  // One walletRpc action per option today, hence exactly one result.
  const [r, ...more] = input.results;
  if (!r || more.length || r.type !== 'walletRpc' || r.data.length !== 1) {
    throw new AppError('params_validation', undefined, [
      { field: '/results', message: 'must hold one walletRpc result (the signature) per action, in order' },
    ]);
  }
  return r.data[0];
}

export async function confirmPayment(db: Db, config: Config, chainWork: ChainWork, rawId: string, input: ConfirmInput, caller: CallerInfo) {
  const { pw, opt } = await openOption(db, config, rawId, input.optionId);
  const paymentId = pw.payment.id;
  if (pw.payment.status !== 'requires_action') return alreadyConfirmed(db, config, paymentId, opt);
  checkQuote(opt);
  const given = signatureOf(input);
  if (!opt.relayer) throw new AppError('quote_expired', 'This option predates on-chain settlement: ask for options again.');
  await checkRevertBudget(db, config.revertBudget, pw.payment.accountId, opt.account);
  let check;
  try {
    check = await chainWork.checkAuthorization(opt.chainId, opt.typedData, given, opt.relayer);
  } catch (e) {
    if (e instanceof ChainUnavailable)
      throw new AppError('service_unavailable', "The chain's RPC node cannot be reached; try again shortly.", undefined, {
        'Retry-After': '2',
      });
    throw e;
  }
  if (!check.ok) throw new AppError(check.refusal); // the catalogue's message
  const signature = check.signature;
  let collected: Buffer | null = null;
  if (opt.collectData) {
    const json =
      input.collectedData !== undefined
        ? JSON.stringify(validCollected(input.collectedData, '/collectedData'))
        : openedOptionData(config, opt);
    if (json === null) throw new AppError('collect_data_required');
    collected = seal(config.dataKeys, json, sealedAt(PAYMENT_DATA, paymentId));
  }
  const done = await repo.applyTransition(db, paymentId, 'confirm', {
    confirmed: {
      optionId: opt.id,
      tokenAsset: opt.asset,
      tokenAmount: opt.tokenAmount,
      chainId: opt.chainId,
      buyerAccount: opt.account,
      txNonce: opt.nonce,
      signature,
      callerInfo: caller,
      collectedData: collected,
    },
  });
  if (!done) return alreadyConfirmed(db, config, paymentId, opt);
  await chainWork.enqueueSubmit(paymentId);
  return done;
}
