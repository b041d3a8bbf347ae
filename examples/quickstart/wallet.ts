// The buyer's wallet's calls to the gateway API, written twice like the merchant side: on the generated
// typescript-fetch SDK (@paygate/sdk) and on @paygate/client. The signing key is the quickstart's.
import { createPaygateClient, type Schemas } from '@paygate/client';
import { Configuration, GatewayApi } from '@paygate/sdk';

export interface Status {
  status: string;
  isFinal: boolean;
  txId?: string;
}
/** An option and its actions, in the spec's wire form (runActions of @paygate/client runs them). */
export interface Option {
  id: string;
  amount: { unit: string; value: string };
  actions: Schemas['Action'][];
}
export interface WalletSide {
  readonly client: string;
  show(paymentId: string): Promise<{ status: string; amount: string; merchant: string }>;
  /** The option in `asset` (CAIP-19) for the buyer's CAIP-10 account, with its actions. */
  option(paymentId: string, account: string, asset: string): Promise<Option>;
  /** A build action's actions (an ETH option's router transaction): fetch with the action's `data.data`. */
  fetch(paymentId: string, optionId: string, data: string): Promise<Schemas['Action'][]>;
  /** Confirms with the actions' results, one per action in their order. */
  confirm(paymentId: string, optionId: string, results: Schemas['ActionResult'][]): Promise<Status>;
  /** Long-polls (up to maxPollMs) until the payment changes. */
  status(paymentId: string, maxPollMs: number): Promise<Status>;
}

/**
 * The option paying in `asset` (either client's options: the same wire form). `options` null: the payment is final
 * (`info.status` says how it ended), nothing is left to pay; `[]`: none of these accounts can pay it.
 */
function optionIn(r: { options?: Option[] | null; info?: { status: string } | null }, account: string, asset: string): Option {
  if (r.options === null) throw new Error(`the payment is already ${r.info?.status ?? 'final'}: nothing left to pay`);
  const opt = r.options?.find((o) => o.amount.unit === `caip19/${asset}`);
  if (!opt) throw new Error(`no ${asset} option for ${account}: ${JSON.stringify(r.options?.map((o) => o.amount.unit))}`);
  return { id: opt.id, amount: opt.amount, actions: opt.actions };
}

/** `version`: the PAY-Version the SDK sends, the one it was generated for. */
/** The amount as a person reads it: `USD 5.00` (value / 10^decimals), or the unit and raw value without display. */
function shownAmount(a: { unit: string; value: string; display?: { assetSymbol: string; decimals: number } | null }): string {
  if (!a.display) return `${a.unit} ${a.value}`;
  const digits = a.value.padStart(a.display.decimals + 1, '0');
  const whole = digits.slice(0, digits.length - a.display.decimals);
  const fraction = a.display.decimals > 0 ? `.${digits.slice(-a.display.decimals)}` : '';
  return `${a.display.assetSymbol} ${whole}${fraction}`;
}

export function sdkWallet(baseUrl: string, walletKey: string, version: string): WalletSide {
  const gateway = new GatewayApi(new Configuration({ basePath: baseUrl, headers: { 'Api-Key': walletKey, 'PAY-Version': version } }));
  return {
    client: 'generated typescript-fetch SDK',
    async show(id) {
      const p = await gateway.getGatewayPayment({ id });
      return { status: p.status, amount: shownAmount(p.amount), merchant: p.merchant.name };
    },
    async option(id, account, asset) {
      const r = await gateway.getPaymentOptions({ id, paymentOptionsRequest: { accounts: [account] } });
      return optionIn(r, account, asset);
    },
    async fetch(id, optionId, data) {
      const r = await gateway.fetchPaymentActions({ id, fetchActionsRequest: { optionId, data } });
      return r.actions as Schemas['Action'][];
    },
    async confirm(id, optionId, results) {
      const r = await gateway.confirmPayment({ id, confirmPaymentRequest: { optionId, results } });
      return { status: r.status, isFinal: r.isFinal, txId: r.info?.txId ?? undefined };
    },
    async status(id, maxPollMs) {
      const r = await gateway.getGatewayPaymentStatus({ id, maxPollMs });
      return { status: r.status, isFinal: r.isFinal, txId: r.info?.txId ?? undefined };
    },
  };
}

export function thinWallet(baseUrl: string, walletKey: string): WalletSide {
  const gateway = createPaygateClient({ baseUrl, apiKey: walletKey });
  const must = <T>(r: { data?: T; error?: unknown; response: Response }, what: string): T => {
    if (r.data === undefined) throw new Error(`${what}: HTTP ${r.response.status} ${JSON.stringify(r.error)}`);
    return r.data;
  };
  return {
    client: '@paygate/client',
    async show(id) {
      const p = must(await gateway.GET('/v1/gateway/payment/{id}', { params: { path: { id } } }), 'getGatewayPayment');
      return { status: p.status, amount: shownAmount(p.amount), merchant: p.merchant.name };
    },
    async option(id, account, asset) {
      const r = must(
        await gateway.POST('/v1/gateway/payment/{id}/options', { params: { path: { id } }, body: { accounts: [account] } }),
        'getPaymentOptions',
      );
      return optionIn(r, account, asset);
    },
    async fetch(id, optionId, data) {
      const r = must(
        await gateway.POST('/v1/gateway/payment/{id}/fetch', { params: { path: { id } }, body: { optionId, data } }),
        'fetchPaymentActions',
      );
      return r.actions;
    },
    async confirm(id, optionId, results) {
      const r = must(
        await gateway.POST('/v1/gateway/payment/{id}/confirm', { params: { path: { id } }, body: { optionId, results } }),
        'confirmPayment',
      );
      return { status: r.status, isFinal: r.isFinal, txId: r.info?.txId ?? undefined };
    },
    async status(id, maxPollMs) {
      const r = must(
        await gateway.GET('/v1/gateway/payment/{id}/status', { params: { path: { id }, query: { maxPollMs } } }),
        'getGatewayPaymentStatus',
      );
      return { status: r.status, isFinal: r.isFinal, txId: r.info?.txId ?? undefined };
    },
  };
}
