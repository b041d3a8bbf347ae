import { getAddress, type Address, type Hex } from 'viem';
import { authorizationCall, type ChainCall, type EvmChain, type Simulation } from '../../chain/evm';
import { permitRefusal, permitUse } from '../../chain/permit2Proofs';
import { authorizationUse, type AuthorizationUse } from '../../chain/proofs';
import type { TransferAuthorization } from '../../domain/eip3009';
import { counterfactualOf } from '../../domain/erc6492';
import { isPermit, permitNonceHex, permitOfCall, permitTerms, permitTransferCall, type PermitTypedData } from '../../domain/permit2';
import type { ChainRefusal } from '../../domain/chain';
import { allOrNone, callsOf, MULTICALL3_ADDRESS } from '../../domain/multicall3';
import type { Fees } from '../../domain/fees';
import { depositAuthorization } from '../../domain/x402Deposit';
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
  /** x402 paid to a deposit address: its onward authorization alone, for when the buyer's was used without it. */
  onward?: SubmissionPlan;
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
  if (opt.depositSignature) return depositPlan(chain, paymentId, opt, td as TransferAuthorization, signature);
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
 * x402 paid to the account's deposit address: the buyer's authorization (buyer to deposit address) and the deposit
 * address's (on to the collector that sends them) in one all-or-none call, so the tokens reach the collector in one
 * transaction. The buyer's authorization is the one claimed and read back, as for any payment.
 */
function depositPlan(chain: EvmChain, paymentId: string, opt: SubmissionInput, td: TransferAuthorization, signature: Hex): SubmissionPlan {
  if (!opt.relayer) throw new Error(`payment ${paymentId}: a deposit address's payment without its collector`);
  const sender = getAddress(opt.relayer);
  const from = getAddress(td.message.from);
  const { signature: inner, deploy } = unwrapped(signature, from);
  const buyer = authorizationCall(td, inner, deploy !== null);
  const next = depositAuthorization(td, sender);
  const onward = authorizationCall(next, opt.depositSignature as Hex);
  const deposit = getAddress(next.message.from);
  // The payment claims the buyer's authorization (one per payment), whichever of the two calls goes.
  const authorization = { chainId: chain.caip2, token: buyer.to, from, nonce: td.message.nonce.toLowerCase() };
  return {
    purpose: 'collect',
    sender,
    call: allOrNone([buyer, onward]),
    authorization,
    use: () => authorizationUse(chain, buyer.to, from, td.message.nonce),
    deploy,
    onward: {
      purpose: 'collect',
      sender,
      call: onward,
      authorization,
      use: () => authorizationUse(chain, onward.to, deposit, next.message.nonce),
      deploy: null,
    },
  };
}

/**
 * Why a failed simulation of `call` fails, as precisely as the chain's state says: Permit2 reverts with one
 * `TRANSFER_FROM_FAILED` whether the allowance or the balance is short, so a permit's state is read; any other
 * call keeps the simulation's reason.
 */
export async function refusalOfCall(
  chain: EvmChain,
  call: ChainCall,
  sim: Extract<Simulation, { ok: false }>,
  from?: { sender: Address; fees: Fees },
): Promise<Extract<Simulation, { ok: false }>> {
  // An all-or-none call says only that one of its calls failed: the buyer's (the first), simulated alone, says why.
  const inner = from && getAddress(call.to) === MULTICALL3_ADDRESS ? callsOf(call.data)?.[0] : undefined;
  if (inner) {
    const alone = await chain.simulate(from!.sender, inner, from!.fees);
    return alone.ok ? sim : refusalOfCall(chain, inner, alone);
  }
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
  const call = { to: tx.to, data: tx.calldata, value: tx.value };
  const from = { sender: getAddress(tx.sender), fees: await chain.fees() };
  const simulated = tx.cancelledAt ? null : await chain.simulate(from.sender, call, from.fees);
  const sim = simulated && !simulated.ok ? await refusalOfCall(chain, call, simulated, from) : simulated;
  return sim === null ? 'authorization_expired' : sim.ok ? 'transaction_reverted' : sim.refusal;
}
