import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import type { ChainWork } from '../../domain/chain';
import { AppError, type Issue } from '../../domain/errors';
import { effectiveStatus } from '../../domain/payment';
import type { ConfirmChecks } from '../../usecases/gateway/confirmChecks';
import { checkConfirm, confirmPayment, type CallerInfo, type ConfirmInput } from '../../usecases/gateway/confirm';
import { offerOptions } from '../../usecases/gateway/options';
import { optionView } from '../../../handlers/gateway/present';
import { readJsonBody } from '../body';
import { STATUS_TEXT } from './payPage';
import { sendJson } from '../render';

// "Pay with wallet" on the hosted pay page (public/hosted/pay.js with the browser's EIP-1193 wallet): the page asks
// for the payment's options for the wallet's account and confirms the results of the option's actions, through
// routes of its own (POST /pay/<id>/options, POST /pay/<id>/confirm) that need no API key: the payment link is the
// capability, as for the page itself. They run the gateway's use cases, so every check is the gateway's (accounts,
// quote, signature, simulation, revert budget), and answer in its wire shapes (an option's `actions`). The caller is
// the page, one per client address (hashed, not stored as is): the confirm checks' limits and the revert budget per
// credential count it as one credential, beside the per-IP request limit of every hosted route.

export interface PayWalletDeps {
  config: Config;
  db: Db;
  chainWork: ChainWork;
  confirmChecks: ConfirmChecks;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The page's caller for a client (its rate-limit key): recorded on the payment like a key's id. */
const pageCaller = (clientKey: string): CallerInfo => ({
  keyId: `page_${createHash('sha256').update(clientKey).digest('hex').slice(0, 24)}`,
  keyType: 'page',
});

const invalid = (issues: Issue[]) => new AppError('params_validation', undefined, issues);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown, max: number, maxLength: number) =>
  Array.isArray(v) && v.length <= max && v.every((s) => typeof s === 'string' && s.length <= maxLength);

/** PaymentOptionsRequest's rules: 1 to 20 accounts of at most 200 characters. */
function accountsOf(body: unknown): string[] {
  const accounts = isObject(body) ? body.accounts : undefined;
  if (!strings(accounts, 20, 200) || !(accounts as string[]).length)
    throw invalid([{ field: '/accounts', message: 'must be 1 to 20 CAIP-10 account ids' }]);
  return accounts as string[];
}

/** ConfirmPaymentRequest's rules: an option id, and at most 20 walletRpc results. */
function confirmOf(body: unknown): ConfirmInput {
  if (!isObject(body) || typeof body.optionId !== 'string' || body.optionId.length > 64)
    throw invalid([{ field: '/optionId', message: 'is required (an option id)' }]);
  const results = body.results;
  const ok =
    Array.isArray(results) &&
    results.length <= 20 &&
    results.every((r) => isObject(r) && typeof r.type === 'string' && r.type.length <= 64 && strings(r.data, 20, 20_000));
  if (!ok) throw invalid([{ field: '/results', message: 'must be at most 20 results {type, data: [string]}' }]);
  return { optionId: body.optionId, results: results as ConfirmInput['results'] };
}

export function payWalletRoutes({ config, db, chainWork, confirmChecks }: PayWalletDeps) {
  return {
    async options(ctx: Context, paymentId: string, clientKey: string) {
      const accounts = accountsOf(await readJsonBody(ctx, config.bodyLimitBytes));
      const r = await offerOptions(db, config, chainWork, paymentId, accounts, pageCaller(clientKey).keyId);
      if (r.options === null) {
        // Final: nothing left to pay; the page shows how the payment ended, as its status line does.
        const status = effectiveStatus(r.payment);
        return sendJson(ctx, 200, JSON.stringify({ options: null, status, statusText: STATUS_TEXT[status] }), NO_STORE);
      }
      const collectData = r.collectData ?? undefined;
      const options = r.options.map((o) => optionView(o, r.etaS, collectData as Parameters<typeof optionView>[2]));
      sendJson(ctx, 200, JSON.stringify({ options }), NO_STORE);
    },
    async confirm(ctx: Context, paymentId: string, clientKey: string) {
      const input = confirmOf(await readJsonBody(ctx, config.bodyLimitBytes));
      const caller = pageCaller(clientKey);
      const checked = await checkConfirm(db, config, confirmChecks, paymentId, input, caller);
      const done = await confirmPayment(db, config, chainWork, paymentId, input, caller, checked);
      sendJson(ctx, 200, JSON.stringify({ status: effectiveStatus(done.payment) }), NO_STORE);
    },
  };
}
