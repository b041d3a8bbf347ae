import { getAddress, type Address, type Hex } from 'viem';
import { authorizationCall, type ChainCall, type EvmChain, type Simulation } from '../../chain/evm';
import { permitRefusal, permitUse } from '../../chain/permit2Proofs';
import { authorizationUse, type AuthorizationUse } from '../../chain/proofs';
import type { TransferAuthorization } from '../../domain/eip3009';
import { counterfactualOf } from '../../domain/erc6492';
import { isPermit, permitNonceHex, permitOfCall, permitTerms, permitTransferCall, type PermitTypedData } from '../../domain/permit2';
import type { ChainRefusal } from '../../domain/chain';
import type { Authorization, ChainTx, SubmissionInput, TxPurpose } from '../../db/relayer';

// What the relayer sends for a confirmed payment, whichever way the buyer signed: an EIP-3009 authorization (the
// token's `receiveWithAuthorization` to the relayer, or `transferWithAuthorization` to the merchant) or a Permit2
// permit (Permit2's `permitTransferFrom`, sent by the spender it names, to the relayer in collector mode or to the
// merchant's destination in direct mode). Each is claimed once, ever, by (chain, contract, signer, nonce): the
// token for an authorization, Permit2 for a permit (its nonces are the owner's across every token). What became of
// it is read from the chain, never concluded from an absent receipt. An ERC-6492 signature's wallet is deployed first
// when it has no code yet (the plan's `deploy`), and the transfer carries the wallet's inner signature.

export interface SubmissionPlan {
  purpose: TxPurpose;
  /** The relayer key that must send it. */
  sender: Address;
  call: ChainCall;
  authorization: Authorization;
  /** What became of the authorization or permit on chain (src/chain/proofs.ts, src/chain/permit2.ts). */
  use(): Promise<AuthorizationUse>;
  /** An ERC-6492 signer: its wallet's deployment, sent first while the wallet has no code (src/usecases/relayer/paymentSteps.ts). */
  deploy: { wallet: Address; call: ChainCall } | null;
}

/** The wallet's deployment an ERC-6492 signature carries, and the wallet's own signature the transfer carries. */
function unwrapped(signature: Hex, wallet: Address) {
  const cf = counterfactualOf(signature);
  return cf ? { signature: cf.signature, deploy: { wallet, call: { to: cf.factory, data: cf.factoryData } } } : { signature, deploy: null };
}

export function submissionPlan(chain: EvmChain, paymentId: string, opt: SubmissionInput, signature: Hex): SubmissionPlan {
  const td = JSON.parse(opt.typedData!) as TransferAuthorization | PermitTypedData;
  if (isPermit(td)) {
    if (!opt.permitTo || !opt.account) throw new Error(`payment ${paymentId}: a permit without its recipient or owner`);
    const sender = getAddress(td.message.spender);
    const owner = getAddress(opt.account.slice(opt.account.lastIndexOf(':') + 1));
    const terms = permitTerms(td);
    const { signature: inner, deploy } = unwrapped(signature, owner);
    const call = permitTransferCall(td, owner, opt.permitTo, inner);
    return {
      purpose: getAddress(opt.permitTo) === sender ? 'collect' : 'direct',
      sender,
      call,
      authorization: { chainId: chain.caip2, token: call.to, from: owner, nonce: permitNonceHex(terms.nonce) },
      use: () => permitUse(chain, terms, owner, opt.permitTo!, sender),
      deploy,
    };
  }
  // Paid to the collector: a ReceiveWithAuthorization, or a TransferWithAuthorization (x402) to the relayer itself.
  const toRelayer = opt.relayer !== null && getAddress(td.message.to) === getAddress(opt.relayer);
  const purpose: TxPurpose = td.primaryType === 'ReceiveWithAuthorization' || toRelayer ? 'collect' : 'direct';
  const sender = getAddress(purpose === 'collect' ? td.message.to : (opt.relayer ?? chain.pickRelayer(paymentId)));
  const from = getAddress(td.message.from);
  const { signature: inner, deploy } = unwrapped(signature, from);
  const call = authorizationCall(td, inner, deploy !== null);
  return {
    purpose,
    sender,
    call,
    authorization: { chainId: chain.caip2, token: call.to, from, nonce: td.message.nonce.toLowerCase() },
    use: () => authorizationUse(chain, call.to, from, td.message.nonce),
    deploy,
  };
}

/**
 * Why a failed simulation of `call` fails, as precisely as the chain's state says: Permit2 reverts with one
 * `TRANSFER_FROM_FAILED` whether the allowance or the balance is short, so a permit's state is read; any other
 * call keeps the simulation's reason.
 */
export async function refusalOfCall(chain: EvmChain, call: ChainCall, sim: Extract<Simulation, { ok: false }>) {
  const permit = permitOfCall(call.data);
  if (!permit) return sim;
  return (await permitRefusal(chain, permit.permit, permit.owner)) ?? sim;
}

/**
 * Why the reverted transaction `tx` fails now, as far as the chain can tell (the same call, simulated again):
 * transaction_reverted when it simulates without a revert; authorization_expired for a transaction whose nonce was
 * being taken back (the row describes the cancellation now).
 */
export async function refusalNow(chain: EvmChain, tx: ChainTx): Promise<ChainRefusal> {
  const call = { to: tx.to, data: tx.calldata };
  const simulated = tx.cancelledAt ? null : await chain.simulate(getAddress(tx.sender), call, await chain.fees());
  const sim = simulated && !simulated.ok ? await refusalOfCall(chain, call, simulated) : simulated;
  return sim === null ? 'authorization_expired' : sim.ok ? 'transaction_reverted' : sim.refusal;
}
