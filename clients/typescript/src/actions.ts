// A payment option's actions, run by the buyer's wallet in the order the option lists them, and the confirm
// `results` built from what the wallet returns: for an EIP-3009 token one signature; for a Permit2 token
// (USDT) the approve transaction first while the buyer's allowance to Permit2 is short, then the permit's
// signature. The wallet itself (a key, an EIP-1193 provider, a hardware signer) is the caller's.
import type { components } from '../../../generated/2026-02-18/types';

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
 * A `build` action has no request to run: POST its data to /v1/gateway/payment/{id}/fetch for the actions first.
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
    if (action.type !== 'walletRpc') throw new Error(`a ${action.type} action: fetch its actions first (/v1/gateway/payment/{id}/fetch)`);
    results.push({ type: 'walletRpc', data: [await wallet(action.data)] });
  }
  return results;
}
