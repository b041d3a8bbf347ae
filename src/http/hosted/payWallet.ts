import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import type { ChainWork } from '../../domain/chain';
import { effectiveStatus } from '../../domain/payment';
import type { ConfirmChecks } from '../../usecases/gateway/confirmChecks';
import { checkConfirm, confirmPayment, type CallerInfo, type ConfirmInput } from '../../usecases/gateway/confirm';
import { fetchActions, offerOptions } from '../../usecases/gateway/options';
import { optionActions, optionView } from '../../../handlers/gateway/present';
import { STATUS_TEXT } from './payPage';
import { sendJson } from '../render';

// "Pay with wallet" on the hosted pay page (public/hosted/pay.js with the browser's EIP-1193 wallet): the page asks
// for the payment's options for the wallet's account, fetches an ETH option's build action into its transaction, and
// confirms the results of the option's actions, through routes of its own (POST /pay/<id>/options,
// POST /pay/<id>/fetch, POST /pay/<id>/confirm, operations of spec/internal/hosted.yaml whose
// requests contract.ts validates) that need no API key: the payment link is the capability, as for the page itself.
// They run the gateway's use cases, so every check is the gateway's (accounts, quote, signature, simulation, revert
// budget), and answer in its wire shapes (an option's `actions`). The caller is the page, one per client address
// (hashed, not stored as is): the confirm checks' limits and the revert budget per credential count it as one
// credential, beside the per-IP request limit of every hosted route.

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

export function payWalletRoutes({ config, db, chainWork, confirmChecks }: PayWalletDeps) {
  return {
    /** `accounts` as PaymentOptionsRequest has them (validated against spec/internal/hosted.yaml: contract.ts). */
    async options(ctx: Context, paymentId: string, clientKey: string, accounts: string[]) {
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
    /**
     * The actions of an option's build action (an ETH option's transaction to the router, its price read again), as
     * the gateway's fetch answers them (FetchActionsRequest: validated, contract.ts).
     */
    async fetch(ctx: Context, paymentId: string, { optionId, data }: { optionId: string; data?: unknown }) {
      const opt = await fetchActions(db, config, chainWork, paymentId, optionId, data);
      sendJson(ctx, 200, JSON.stringify({ actions: optionActions(opt, 'fetch') }), NO_STORE);
    },
    /** The option and its results, as ConfirmPaymentRequest has them (validated: contract.ts); no collectedData. */
    async confirm(ctx: Context, paymentId: string, clientKey: string, { optionId, results }: ConfirmInput) {
      const input = { optionId, results };
      const caller = pageCaller(clientKey);
      const checked = await checkConfirm(db, config, confirmChecks, paymentId, input, caller);
      const done = await confirmPayment(db, config, chainWork, paymentId, input, caller, checked);
      sendJson(ctx, 200, JSON.stringify({ status: effectiveStatus(done.payment) }), NO_STORE);
    },
  };
}
