import type { Payment } from '../../src/domain/payment';
import type { ApiVersion } from '../../src/domain/versions';
import { livemodeOf } from '../../src/wire/livemode';
import { effectiveStatus } from '../../src/domain/payment';
import type { OfferedOption } from '../../src/usecases/gateway/options';
import type { CallerInfo } from '../../src/usecases/gateway/confirm';
import type { Caller } from '../../src/http/handlerTypes';
import type { components } from '../../generated/2026-02-19.preview/types';
import type { collectDataFor } from '../../src/domain/collectData';
import { fiatAmount, tokenAmount } from '../payments/present';
import { nativeQuoteOf } from '../../src/domain/nativeQuote';
import { NATIVE_BUILD_DATA, nativeTransaction } from '../../src/usecases/gateway/nativeOption';

type CollectData = components['schemas']['CollectData'];

/** The generated type reads an open `schema` object as `Record<string, never>`; ours is a JSON Schema. */
export const collectDataView = (c: ReturnType<typeof collectDataFor>) => c as unknown as CollectData;

// Wire shapes of the gateway operations.

export function gatewayPaymentView(p: Payment, merchant: { name: string; iconUrl: string | null }, version: ApiVersion) {
  return {
    status: effectiveStatus(p),
    amount: fiatAmount(p),
    expiresAt: Math.floor(p.expiresAt.getTime() / 1000),
    // iconUrl is a URL string (docs/decisions.md, seed §2.7): absent, never null.
    merchant: { name: merchant.name, ...(merchant.iconUrl ? { iconUrl: merchant.iconUrl } : {}) },
    ...livemodeOf(version, p.accountId),
  };
}

type ActionSource = Pick<OfferedOption, 'chainId' | 'account' | 'typedData' | 'approve'>;

/**
 * The option's wallet actions, in order: a Permit2 option whose buyer has not approved Permit2 first sends the
 * approve (`eth_sendTransaction` of the transaction object `{from, to, value, data}`), then every option's typed
 * data is signed (`eth_signTypedData_v4` of `[address, typed data JSON string]`). A native-coin option's one action is
 * the buyer's own transaction to the router, built on fetch.
 */
export function optionActions(o: ActionSource, stage: 'options' | 'fetch') {
  // The chain's own coin: a build action in the options, whose fetch (the price checked again) gives the transaction.
  const native = nativeQuoteOf(o.typedData);
  if (native && stage === 'options') return [{ type: 'build' as const, data: { data: NATIVE_BUILD_DATA } }];
  if (native) {
    const tx = nativeTransaction(native);
    return [{ type: 'walletRpc' as const, data: { chain_id: o.chainId, method: 'eth_sendTransaction', params: [tx] } }];
  }
  const sign = {
    type: 'walletRpc' as const,
    data: { chain_id: o.chainId, method: 'eth_signTypedData_v4', params: [o.account.slice(o.account.lastIndexOf(':') + 1), o.typedData] },
  };
  if (!o.approve) return [sign];
  return [
    // The transaction object itself, as JSON-RPC takes it: wallets hand `params` to their provider unchanged.
    { type: 'walletRpc' as const, data: { chain_id: o.chainId, method: 'eth_sendTransaction', params: [o.approve] } },
    sign,
  ];
}

export function optionView(o: OfferedOption, etaS: number, collectData: CollectData | undefined) {
  return {
    id: o.id,
    account: o.account,
    amount: tokenAmount(o.assetInfo, o.tokenAmount),
    actions: optionActions(o, 'options'),
    etaS,
    expiresAt: Math.floor(o.expiresAt.getTime() / 1000),
    ...(collectData ? { collectData } : {}),
  };
}

/** Who called, recorded on the payment at confirm (for support and per-wallet statistics). */
export function callerInfo(caller: Caller, headers: Record<string, string | undefined>): CallerInfo {
  return {
    keyId: caller.keyId,
    keyType: caller.keyType,
    ...(headers['app-id'] ? { appId: headers['app-id'].slice(0, 128) } : {}),
    ...(headers['sdk-name'] ? { sdkName: headers['sdk-name'] } : {}),
    ...(headers['sdk-version'] ? { sdkVersion: headers['sdk-version'] } : {}),
    ...(headers['sdk-platform'] ? { sdkPlatform: headers['sdk-platform'] } : {}),
  };
}
