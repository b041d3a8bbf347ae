// The partner's backend, written twice: once on @paygate/client (openapi-fetch over the generated types),
// once on the generated typescript-fetch SDK (@paygate/sdk). Both do the same calls; the quickstart uses one
// or the other.
import { createPaygateClient, idempotencyKey } from '@paygate/client';
import { Configuration, MerchantsApi, PaymentsApi, SettlementsApi } from '@paygate/sdk';

export interface Amount {
  unit: string;
  value: string;
}
export interface MerchantSide {
  readonly client: string;
  createMerchant(name: string, email: string): Promise<string>;
  addSettlement(merchantId: string, asset: string, destination: string): Promise<string>;
  createPayment(
    merchantId: string,
    referenceId: string,
    amount: Amount,
  ): Promise<{ paymentId: string; gatewayUrl: string; status: string }>;
  /** `settlementTxId`: the transfer of amount minus fee to the merchant's destination, once it is confirmed. */
  getPayment(
    merchantId: string,
    paymentId: string,
  ): Promise<{ status: string; txId?: string; settlementTxId?: string; refundedAt?: string }>;
  /** The refund as the answer has it: `pending` (being sent) or `requires_funding` (nothing sent until `fundingUrl` is paid). */
  refund(merchantId: string, paymentId: string): Promise<{ status: string; fundingUrl?: string }>;
}

/** openapi-fetch returns `{ data, error }`; the error is the spec's Error body. */
function must<T>(r: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (r.data === undefined) throw new Error(`${what}: HTTP ${r.response.status} ${JSON.stringify(r.error)}`);
  return r.data;
}

export function thinMerchant(baseUrl: string, apiKey: string): MerchantSide {
  const paygate = createPaygateClient({ baseUrl, apiKey });
  return {
    client: '@paygate/client',
    async createMerchant(name, email) {
      const r = await paygate.POST('/v1/merchants', {
        params: { header: { 'Idempotency-Key': idempotencyKey('merchant', name) } },
        body: { merchantName: name, merchantEmail: email },
      });
      return must(r, 'createMerchant').merchant.id;
    },
    async addSettlement(merchantId, asset, destination) {
      const r = await paygate.POST('/v1/merchants/{merchantId}/settlements/crypto', {
        params: { path: { merchantId }, header: { 'Idempotency-Key': idempotencyKey('settlement', merchantId, asset) } },
        body: { settlements: [{ asset, destination }] },
      });
      return must(r, 'createCryptoSettlements').settlements[0].id;
    },
    async createPayment(merchantId, referenceId, amount) {
      const r = await paygate.POST('/v1/payments', {
        params: { header: { 'Merchant-Id': merchantId, 'Idempotency-Key': idempotencyKey('payment', merchantId, referenceId) } },
        body: { referenceId, amount },
      });
      const p = must(r, 'createPayment');
      return { paymentId: p.paymentId, gatewayUrl: p.gatewayUrl, status: p.status };
    },
    async getPayment(merchantId, paymentId) {
      const p = must(
        await paygate.GET('/v1/payments/{id}', { params: { path: { id: paymentId }, header: { 'Merchant-Id': merchantId } } }),
        'getPayment',
      );
      return {
        status: p.status,
        txId: p.info?.txId ?? undefined,
        settlementTxId: p.settlement?.successful?.txId,
        refundedAt: p.refundedAt ?? undefined,
      };
    },
    async refund(merchantId, paymentId) {
      const { refund } = must(
        await paygate.POST('/v1/refunds', {
          params: { header: { 'Merchant-Id': merchantId, 'Idempotency-Key': idempotencyKey('refund', paymentId) } },
          body: { paymentId },
        }),
        'createRefund',
      );
      return { status: refund?.status ?? 'not reported', fundingUrl: refund?.fundingInstructions?.gatewayUrl };
    },
  };
}

/** `version`: the PAY-Version the SDK sends, the one it was generated for. */
export function sdkMerchant(baseUrl: string, apiKey: string, version: string): MerchantSide {
  // Headers rather than `apiKey`: the SDK would send a string apiKey as Api-Key, App-Id and Client-Id alike.
  const config = new Configuration({ basePath: baseUrl, headers: { 'Api-Key': apiKey, 'PAY-Version': version } });
  const merchants = new MerchantsApi(config);
  const settlements = new SettlementsApi(config);
  const payments = new PaymentsApi(config);
  return {
    client: 'generated typescript-fetch SDK',
    async createMerchant(name, email) {
      const r = await merchants.createMerchant({
        idempotencyKey: idempotencyKey('merchant', name),
        createMerchantRequest: { merchantName: name, merchantEmail: email },
      });
      return r.merchant.id;
    },
    async addSettlement(merchantId, asset, destination) {
      const r = await settlements.createCryptoSettlements({
        merchantId,
        idempotencyKey: idempotencyKey('settlement', merchantId, asset),
        createCryptoSettlementsRequest: { settlements: [{ asset, destination }] },
      });
      return r.settlements[0].id;
    },
    async createPayment(merchantId, referenceId, amount) {
      const p = await payments.createPayment({
        merchantId,
        idempotencyKey: idempotencyKey('payment', merchantId, referenceId),
        createPaymentRequest: { referenceId, amount: { unit: amount.unit, value: amount.value } },
      });
      return { paymentId: p.paymentId, gatewayUrl: p.gatewayUrl, status: p.status };
    },
    async getPayment(merchantId, paymentId) {
      const p = await payments.getPayment({ id: paymentId, merchantId });
      return {
        status: p.status,
        txId: p.info?.txId ?? undefined,
        settlementTxId: p.settlement?.successful?.txId,
        refundedAt: p.refundedAt?.toISOString(),
      };
    },
    async refund(merchantId, paymentId) {
      const { refund } = await payments.createRefund({
        merchantId,
        idempotencyKey: idempotencyKey('refund', paymentId),
        createRefundRequest: { paymentId },
      });
      return { status: refund?.status ?? 'not reported', fundingUrl: refund?.fundingInstructions?.gatewayUrl };
    },
  };
}
