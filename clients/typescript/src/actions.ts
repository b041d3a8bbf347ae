// A payment option's actions, run by the buyer's wallet in the order the option lists them, and the confirm
// `results` built from what the wallet returns: for an EIP-3009 token one signature; for a Permit2 token
// (USDT) the approve transaction first while the buyer's allowance to Permit2 is short, then the permit's
// signature; for the chain's own coin (ETH, docs/native.md) a `build` action that payOption fetches into the one
// eth_sendTransaction to the router, whose hash is the result. The wallet itself (a key, an EIP-1193 provider, a
// hardware signer) is the caller's.
import type { Client } from 'openapi-fetch';
import type { components, paths } from '../../../generated/2026-02-18/types';

type Schemas = components['schemas'];
/**
 * One `walletRpc` action's request: `method` with `params` on `chain_id` (CAIP-2). `method` and `params` are in
 * JSON-RPC form: hand them to an EIP-1193 provider as they are (`provider.request({ method, params })`).
 */
export type WalletRpcRequest = Schemas['WalletRpcAction']['data'];

/**
 * Runs one wallet RPC request and resolves with its result:
 * - `eth_sendTransaction` (`params` `[{from, to, value, data}]`, the transaction object, `value` a hex quantity):
 *   broadcast it, wait for its receipt and resolve with the transaction hash (confirm answers 409
 *   `approval_pending` for an approve not yet mined);
 * - `eth_signTypedData_v4` (`params` `[signer, JSON string of the EIP-712 typed data]`): resolve with the signature.
 */
export type WalletRpcRunner = (request: WalletRpcRequest) => Promise<string>;

/**
 * Runs the option's actions one after the other (each waits for the one before: a permit is only accepted once
 * its approve is mined) and returns the confirm `results`, one per action in the actions' order.
 * A `build` action has no request to run: payOption fetches it into its actions (/v1/gateway/payment/{id}/fetch).
 *
 * Options of a payment in a final state are `null` (its `info.status` says how it ended: nothing is left to pay);
 * `[]` means none of the accounts asked about can pay it.
 *
 *   const results = await runActions(option.actions, wallet);
 *   await paygate.POST('/v1/gateway/payment/{id}/confirm', { params: { path: { id } }, body: { optionId: option.id, results } });
 */
export async function runActions(actions: ReadonlyArray<Schemas['Action']>, wallet: WalletRpcRunner): Promise<Schemas['ActionResult'][]> {
  const results: Schemas['ActionResult'][] = [];
  for (const action of actions) {
    if (action.type !== 'walletRpc')
      throw new Error(`a ${action.type} action: fetch its actions first (payOption, or /v1/gateway/payment/{id}/fetch)`);
    results.push({ type: 'walletRpc', data: [await wallet(action.data)] });
  }
  return results;
}

/** A gateway client of the stable version (createPaygateClient): payOption calls its fetch operation. */
export type GatewayFetchClient = Pick<Client<paths>, 'POST'>;

/**
 * The gateway refused to fetch a build action's actions: `status` and the spec's `code`, e.g. 409 `price_moved`
 * (ask for the payment's options again: the quote no longer holds) or `price_stale` (the chain's price feed is late).
 */
export class FetchActionsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'FetchActionsError';
  }
}

/**
 * Pays one option of payment `paymentId` with `wallet` and returns confirm's `results`: its `walletRpc` actions run
 * as runActions runs them; a `build` action (an ETH option's, `{type: "build", data: {data: "native"}}`) is first
 * POSTed to /v1/gateway/payment/{id}/fetch with `{optionId, data: action.data.data}`, and the actions it answers
 * (for ETH one `eth_sendTransaction` to the router, `value` the quoted wei: the wallet resolves with the transaction
 * hash) are run in its place. Throws FetchActionsError when the gateway refuses the fetch.
 *
 *   const results = await payOption(paygate, id, option, wallet);
 *   await paygate.POST('/v1/gateway/payment/{id}/confirm', { params: { path: { id } }, body: { optionId: option.id, results } });
 */
export async function payOption(
  gateway: GatewayFetchClient,
  paymentId: string,
  option: Pick<Schemas['PaymentOption'], 'id' | 'actions'>,
  wallet: WalletRpcRunner,
): Promise<Schemas['ActionResult'][]> {
  const results: Schemas['ActionResult'][] = [];
  for (const action of option.actions) {
    if (action.type !== 'build') {
      results.push(...(await runActions([action], wallet)));
      continue;
    }
    const { data, error, response } = await gateway.POST('/v1/gateway/payment/{id}/fetch', {
      params: { path: { id: paymentId } },
      body: { optionId: option.id, data: action.data.data },
    });
    if (!data) {
      const e = error as { code?: string; message?: string } | undefined;
      throw new FetchActionsError(
        response.status,
        e?.code,
        `fetch of option ${option.id}: HTTP ${response.status} ${e?.code ?? ''} ${e?.message ?? ''}`.trim(),
      );
    }
    // What fetch answers is run as is; another build action in it is refused (runActions).
    results.push(...(await runActions(data.actions, wallet)));
  }
  return results;
}
