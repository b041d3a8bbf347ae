import type { Address } from 'viem';
import type { ChainCall, EvmChain, Simulation } from '../../chain/evm';
import type { TxPurpose } from '../../domain/chainTx';
import type { Fees } from '../../domain/fees';
import type { NewTx } from '../../db/relayer';

/** Gas estimates get headroom: state may change between simulation and inclusion. */
export const withHeadroom = (gas: bigint) => (gas * 13n) / 10n + 10_000n;

/** A token transfer ready to submit (`Submission`'s tx, call and fees), or the chain's refusal of it. */
export type PlannedTransfer =
  { ok: true; tx: NewTx; call: ChainCall; fees: Fees } | { ok: false; call: ChainCall; sim: Extract<Simulation, { ok: false }> };

/**
 * The one recipe of every token transfer the relayer sends out of a key it holds (a settlement, a batch, a reserve's
 * release, a refund, a retired key's sweep): the ERC-20 call, today's fees, a simulation from the sender with those
 * fees, and the transaction to store with the simulated gas plus headroom.
 */
export async function planTransfer(
  chain: EvmChain,
  t: { sender: Address; token: string; to: string; amount: bigint; purpose: TxPurpose; paymentId: string | null },
): Promise<PlannedTransfer> {
  const call = chain.transferCall(t.token, t.to, t.amount);
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
    gasLimit: withHeadroom(sim.gas),
    ...fees,
  };
  return { ok: true, tx, call, fees };
}

/** A transfer that settles many payments at once (a scheduled batch, a reserve's release): of no one payment. */
export const BATCH = { purpose: 'settle_batch', paymentId: null } as const;
