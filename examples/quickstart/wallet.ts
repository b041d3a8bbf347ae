// The buyer's wallet's calls to the gateway API, written twice like the merchant side: on the generated
// typescript-fetch SDK (@paygate/sdk) and on @paygate/client. The signing key is the quickstart's.
import { createPaygateClient } from '@paygate/client';
import { Configuration, GatewayApi, instanceOfWalletRpcAction } from '@paygate/sdk';

export interface Status {
  status: string;
  isFinal: boolean;
  txId?: string;
}
export interface Option {
  id: string;
  amount: { unit: string; value: string };
  method: string;
  typedData: string;
}
export interface WalletSide {
  readonly client: string;
  show(paymentId: string): Promise<{ status: string; amount: string; merchant: string }>;
  /** The first option for the buyer's CAIP-10 account, with its `eth_signTypedData_v4` payload. */
  option(paymentId: string, account: string): Promise<Option>;
  confirm(paymentId: string, optionId: string, signature: string): Promise<Status>;
  /** Long-polls (up to maxPollMs) until the payment changes. */
  status(paymentId: string, maxPollMs: number): Promise<Status>;
}

/** `version`: the PAY-Version the SDK sends, the one it was generated for. */
export function sdkWallet(baseUrl: string, walletKey: string, version: string): WalletSide {
  const gateway = new GatewayApi(new Configuration({ basePath: baseUrl, headers: { 'Api-Key': walletKey, 'PAY-Version': version } }));
  return {
    client: 'generated typescript-fetch SDK',
    async show(id) {
      const p = await gateway.getGatewayPayment({ id });
      return { status: p.status, amount: `${p.amount.display?.assetSymbol ?? p.amount.unit} ${p.amount.value}`, merchant: p.merchant.name };
    },
    async option(id, account) {
      const r = await gateway.getPaymentOptions({ id, paymentOptionsRequest: { accounts: [account] } });
      const opt = r.options?.[0];
      if (!opt) throw new Error(`no payment option for ${account}`);
      // An option's last action is its signature (a Permit2 option may first ask for an approve transaction).
      const action = opt.actions[opt.actions.length - 1];
      if (!instanceOfWalletRpcAction(action)) throw new Error(`option ${opt.id} ends with a ${action.type} action`);
      return { id: opt.id, amount: opt.amount, method: action.data.method, typedData: action.data.params[1] };
    },
    async confirm(id, optionId, signature) {
      const r = await gateway.confirmPayment({
        id,
        confirmPaymentRequest: { optionId, results: [{ type: 'walletRpc', data: [signature] }] },
      });
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
      return { status: p.status, amount: `${p.amount.display?.assetSymbol ?? p.amount.unit} ${p.amount.value}`, merchant: p.merchant.name };
    },
    async option(id, account) {
      const r = must(
        await gateway.POST('/v1/gateway/payment/{id}/options', { params: { path: { id } }, body: { accounts: [account] } }),
        'getPaymentOptions',
      );
      const opt = r.options?.[0];
      if (!opt) throw new Error(`no payment option for ${account}`);
      // An option's last action is its signature (a Permit2 option may first ask for an approve transaction).
      const action = opt.actions[opt.actions.length - 1];
      if (action.type !== 'walletRpc') throw new Error(`option ${opt.id} ends with a ${action.type} action`);
      return { id: opt.id, amount: opt.amount, method: action.data.method, typedData: action.data.params[1] };
    },
    async confirm(id, optionId, signature) {
      const r = must(
        await gateway.POST('/v1/gateway/payment/{id}/confirm', {
          params: { path: { id } },
          body: { optionId, results: [{ type: 'walletRpc', data: [signature] }] },
        }),
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
