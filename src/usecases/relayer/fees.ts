import { getAddress, type Hex } from 'viem';
import { authorizationDeadline, type EvmChain } from '../../chain/evm';
import { ChainUnavailable } from '../../domain/chain';
import { cancellationFees, networkAsksMore, replacementFees, type Fees } from '../../domain/fees';
import * as relayer from '../../db/relayer';
import type { RelayerDeps } from './paymentSteps';

// A transaction without a receipt CHAIN_STUCK_AFTER_MS after it was signed is stuck. What the monitor does with it, on
// every pass until it is mined (a replacement is signed anew, so the wait starts again):
// - the chain's latest block is at or past its authorization's validBefore: it can never succeed (every later block is
//   later still). A 0-value transfer from the sender to itself takes its nonce back (a cancellation); the payment fails
//   with authorization_expired once that transfer is final (src/usecases/relayer/monitor.ts).
// - the network asks more than it offers: a replacement at the same nonce offers what the network asks (at least the
//   pool's replacement step more), at most CHAIN_MAX_FEE_BUMPS times and never above the chain's fee ceiling. At
//   either limit it waits for fees to fall, said once (an error log) and counted (paygate_relayer_fee_limited_transactions).
// - otherwise higher fees would not help it in: it is left as it is, and re-broadcast like any transaction.

/** What a 0-value transfer without calldata costs. */
const TRANSFER_GAS = 21_000n;

/** Deals with a stuck transaction; true when it was replaced (the monitor then does not re-broadcast the old bytes). */
export async function unstick(deps: RelayerDeps, chain: EvmChain, tx: relayer.ChainTx, chainTime: () => Promise<bigint>): Promise<boolean> {
  const deadline = tx.cancelledAt ? null : authorizationDeadline(tx.calldata);
  if (deadline !== null && (await chainTime()) >= deadline) {
    const sender = getAddress(tx.sender);
    const fees = cancellationFees(tx, await chain.networkFees(), chain.maxFeePerGas);
    await replaceWith(deps, chain, tx, fees, { to: sender, calldata: '0x', gasLimit: TRANSFER_GAS });
    deps.log.warn(
      { paymentId: tx.paymentId, nonce: tx.nonce, oldHash: tx.hash, validBefore: deadline.toString() },
      "stuck past its authorization's validBefore: nonce taken back by a 0-value transfer to the relayer",
    );
    return true;
  }
  const network = await chain.networkFees();
  if (!networkAsksMore(tx, network)) {
    if (tx.feeLimitedAt) await relayer.markFeeLimited(deps.db, tx.id, false);
    return false;
  }
  const limit = tx.feeBumps >= deps.maxFeeBumps ? 'bumps' : null;
  const next = limit ? null : replacementFees(tx, network, chain.maxFeePerGas);
  if (!next) {
    if (tx.feeLimitedAt) return false; // said already
    await relayer.markFeeLimited(deps.db, tx.id, true);
    deps.log.error(
      {
        paymentId: tx.paymentId,
        chainId: chain.caip2,
        sender: tx.sender,
        nonce: tx.nonce,
        txHash: tx.hash,
        limit: limit ?? 'ceiling',
        feeBumps: tx.feeBumps,
        maxFeePerGas: tx.maxFeePerGas.toString(),
        networkMaxFeePerGas: network.maxFeePerGas.toString(),
      },
      'stuck transaction at its fee limit (CHAIN_MAX_FEE_BUMPS or the fee ceiling) while the network asks more: it waits for fees to fall',
    );
    return false;
  }
  await replaceWith(deps, chain, tx, next);
  deps.log.warn(
    { paymentId: tx.paymentId, nonce: tx.nonce, oldHash: tx.hash, maxFeePerGas: next.maxFeePerGas.toString(), feeBumps: tx.feeBumps + 1 },
    'stuck transaction replaced with the fees the network asks',
  );
  return true;
}

/** Signs the replacement at the transaction's nonce, stores it (the old hash stays known), then broadcasts it. */
async function replaceWith(
  deps: RelayerDeps,
  chain: EvmChain,
  tx: relayer.ChainTx,
  fees: Fees,
  cancel?: { to: Hex; calldata: Hex; gasLimit: bigint },
): Promise<void> {
  // A replacement carries the value the transaction was signed with; a cancellation never carries any.
  const call = cancel ? { to: cancel.to, data: cancel.calldata } : { to: tx.to, data: tx.calldata, value: tx.value };
  const signed = await chain.sign(getAddress(tx.sender), tx.nonce, call, cancel?.gasLimit ?? tx.gasLimit, fees);
  await relayer.replace(deps.db, tx.id, signed, fees, cancel);
  try {
    if ((await chain.broadcast(signed.raw)) !== 'nonce_too_low') await relayer.markBroadcast(deps.db, tx.id);
    // nonce_too_low: the monitor finds out which transaction took the nonce.
  } catch (e) {
    if (!(e instanceof ChainUnavailable)) throw e;
    deps.log.warn({ chainId: chain.caip2, txHash: signed.hash, err: e.message }, 'broadcast failed; the monitor will send it again');
  }
}
