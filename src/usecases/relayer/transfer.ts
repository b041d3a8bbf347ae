import { getAddress, type Address } from 'viem';
import type { ChainCall, EvmChain, Simulation } from '../../chain/evm';
import type { TxPurpose } from '../../domain/chainTx';
import type { Fees } from '../../domain/fees';
import type { NewTx } from '../../db/relayer';
import { isNativeAsset, tokenAddressOf } from '../../domain/caip';

/** Gas estimates get headroom: state may change between simulation and inclusion. */
export const withHeadroom = (gas: bigint) => (gas * 13n) / 10n + 10_000n;

/** A token transfer ready to submit (`Submission`'s tx, call and fees), or the chain's refusal of it. */
export type PlannedTransfer =
  { ok: true; tx: NewTx; call: ChainCall; fees: Fees } | { ok: false; call: ChainCall; sim: Extract<Simulation, { ok: false }> };

/**
 * What sends `amount` of `asset` (CAIP-19) to `to`: the ERC-20 transfer() of a token, or for the chain's own coin
 * (slip44:60, collector mode) a plain send carrying the amount as the transaction's value, without calldata.
 */
function transferCallOf(chain: EvmChain, asset: string, to: string, amount: bigint): ChainCall {
  if (isNativeAsset(asset)) return { to: getAddress(to), data: '0x', value: amount };
  return chain.transferCall(tokenAddressOf(asset), to, amount);
}

/** Whether a stored transaction is the one `call` describes (a guard finding its own among a batch's). */
export const isCallOf = (tx: { to: string; calldata: string; value: bigint }, call: ChainCall) =>
  getAddress(tx.to) === getAddress(call.to) && tx.calldata === call.data && tx.value === (call.value ?? 0n);

/**
 * The one recipe of every transfer the relayer sends out of a key it holds (a settlement, a batch, a reserve's
 * release, a refund, a retired key's sweep): the ERC-20 call (or the coin's send: transferCallOf), today's fees, a
 * simulation from the sender with those fees and that value, and the transaction to store with the simulated gas plus
 * headroom and the value.
 */
export async function planTransfer(
  chain: EvmChain,
  t: { sender: Address; asset: string; to: string; amount: bigint; purpose: TxPurpose; paymentId: string | null },
): Promise<PlannedTransfer> {
  const call = transferCallOf(chain, t.asset, t.to, t.amount);
  const fees = await chain.fees();
  const sim = await chain.simulate(t.sender, call, fees);
  if (!sim.ok) return { ok: false, call, sim };
  const tx: NewTx = {
    chainId: chain.caip2,
    sender: t.sender,
    purpose: t.purpose,
    paymentId: t.paymentId,
    to: call.to,
    calldata: call.data,
    value: call.value ?? 0n,
    gasLimit: withHeadroom(sim.gas),
    ...fees,
  };
  return { ok: true, tx, call, fees };
}

/** A transfer that settles many payments at once (a scheduled batch, a reserve's release): of no one payment. */
export const BATCH = { purpose: 'settle_batch', paymentId: null } as const;
