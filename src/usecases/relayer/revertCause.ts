import type { TransactionReceipt } from 'viem';
import { authorizationDeadline, type EvmChain } from '../../chain/evm';
import { tokenRefusedAt } from '../../chain/tokenRefusal';
import { ChainUnavailable } from '../../domain/chain';
import { permitOfCall } from '../../domain/permit2';
import type * as relayer from '../../db/relayer';

// Who a reverted collect or direct transaction is charged to (src/usecases/gateway/revertBudget.ts), from what the chain proves
// at the block that mined it; without proof, the payer, whose balance, authorization or wallet is what moves.
// Congestion is nobody's: an authorization that left time when the relayer sent it and was mined past its deadline fell
// behind the chain through the relayer's fees or the chain's load, which no payer controls; and a nonce the relayer was
// taking back (relayer/fees.ts cancels only once the chain's time has passed the deadline) is the same lateness. A
// deadline that left less than CONGESTION_MARGIN_S when sent was the payer's choice (x402 lets the payer pick one a few
// seconds ahead; the gateway's options leave minutes): charging nobody for it would make its reverts free.

/** A deadline this far past the first signing can be missed only by a chain or relayer falling behind. */
const CONGESTION_MARGIN_S = 60n;

/** The block's time; an RPC error proves nothing, so the pass asks again later. */
async function blockTime(chain: EvmChain, receipt: TransactionReceipt): Promise<bigint> {
  try {
    return (await chain.pub.getBlock({ blockHash: receipt.blockHash })).timestamp;
  } catch (e) {
    throw new ChainUnavailable((e as Error).message);
  }
}

/** Whether the authorization of `tx` had expired at the block that mined it, having left time when first signed. */
async function lateOnChain(chain: EvmChain, tx: relayer.ChainTx, receipt: TransactionReceipt): Promise<boolean> {
  const deadline = authorizationDeadline(tx.calldata);
  if (deadline === null) return false;
  if (deadline - BigInt(Math.floor(tx.createdAt.getTime() / 1000)) < CONGESTION_MARGIN_S) return false;
  const t = await blockTime(chain, receipt);
  // EIP-3009 requires block.timestamp < validBefore; Permit2 accepts block.timestamp == deadline.
  return permitOfCall(tx.calldata) ? t > deadline : t >= deadline;
}

export async function revertCauseOf(chain: EvmChain, tx: relayer.ChainTx, receipt: TransactionReceipt): Promise<relayer.RevertCause> {
  const call = { to: tx.to, data: tx.calldata, value: tx.value };
  if (await tokenRefusedAt(chain, call, receipt.blockNumber)) return 'token';
  if (tx.cancelledAt || (await lateOnChain(chain, tx, receipt))) return 'congestion';
  return 'payer';
}
