import { getAddress } from 'viem';
import type { Tx } from '../../db/knex';
import * as reserves from '../../db/ledger/reserves';
import * as payments from '../../db/payments';
import type { ChainTx } from '../../db/relayer';
import { holdSettlement } from '../../db/settlementTransfersRepo';
import { parseAccountId } from '../../domain/caip';
import { InsufficientBalance, recordTransferOutcome } from '../ledger/records';
import type { RelayerDeps } from './paymentSteps';
import { BATCH, isCallOf, planTransfer } from './transfer';
import { GuardRefused } from './submissions';

interface Mined {
  transactionHash: string;
  blockNumber: bigint;
}

// Releases of the refund reserve (docs/ledger.md "Refund reserve"): once a payment's reserve window ends, what is
// left of its reserve settles on to its merchant, in one transfer per merchant, asset and collector (a `settle_batch`
// transaction, as a scheduled batch: simulated, stored signed under a nonce from PostgreSQL with its reserves and the
// ledger's reservation from `reserve`, then broadcast and followed by the monitor). Every process's sweeper ticks it;
// a reserve is attached to one standing release at most, so several processes never send it twice.

/** Stores and sends the releases due now; the hashes of those this call stored. */
export async function releaseReserves(deps: RelayerDeps): Promise<string[]> {
  const { due, emptied } = await reserves.dueReleases(deps.db);
  // Refunds took the whole reserve of a payment whose share was all reserved: nothing is left to settle.
  for (const e of emptied.filter((x) => x.settles)) await holdSettlement(deps.db, e.paymentId, 'refunded: nothing left to settle');
  const sent: string[] = [];
  for (const b of due) {
    try {
      const hash = await sendRelease(deps, b);
      if (hash) sent.push(hash);
    } catch (e) {
      const waits = e instanceof GuardRefused || e instanceof InsufficientBalance;
      deps.log[waits ? 'info' : 'warn'](
        { merchantId: b.merchantId, asset: b.asset, err: (e as Error).message },
        'reserve release not sent; tried again at the next tick',
      );
    }
  }
  return sent;
}

async function sendRelease(deps: RelayerDeps, b: reserves.DueRelease): Promise<string | null> {
  const { chains, log } = deps;
  const chain = chains.get(b.chainId);
  const sender = getAddress(b.collector);
  if (!chain || !chain.holds(sender)) return null; // another process holds the key
  const amount = b.members.reduce((s, m) => s + m.amount, 0n);
  const to = parseAccountId(b.destination).address;
  const t = await planTransfer(chain, { sender, asset: b.asset, to, amount, ...BATCH });
  if (!t.ok) {
    log.warn(
      { merchantId: b.merchantId, asset: b.asset, refusal: t.sim.refusal },
      'reserve release refused at simulation; tried again later',
    );
    return null;
  }
  const { call } = t;
  const r = await deps.submissions.submit(chain, sender, {
    ...t,
    reserve: {
      kind: 'settle_reserved',
      accountId: b.accountId,
      asset: b.asset,
      amount,
      shares: b.members.map((m) => ({ paymentId: m.paymentId, amount: m.amount })),
      fromReserve: true,
    },
    guard: async (trx, stored) => {
      const mine = stored.find((t) => t.purpose === 'settle_batch' && isCallOf(t, call));
      const changed = mine ? await reserves.attachRelease(trx, mine.id, b.members) : null;
      if (changed) throw new GuardRefused(`the reserve of ${changed} changed since its release was read: it waits for the next tick`);
      // A payment whose share was all reserved is settled by its release: its details show this transfer.
      const first = b.members.filter((m) => m.settles);
      await payments.recordSettlementPlans(
        trx,
        first.map((m) => ({ paymentId: m.paymentId, fee: m.fee, amount: m.amount, destination: b.destination })),
      );
    },
  });
  if (r.kind !== 'stored') return null;
  log.info(
    { merchantId: b.merchantId, asset: b.asset, payments: b.members.length, amount: amount.toString(), txHash: r.tx.hash },
    'reserve release submitted',
  );
  return r.tx.hash;
}

/**
 * A release's transaction is final (in the monitor's database transaction): sent, what it reserved leaves for the
 * merchant and each payment whose whole share was reserved is settled with it (payment.settled; any other settles with
 * its own settlement, before or after); reverted or dropped, the reservation
 * goes back to the reserve and the release is due again. False when the transaction releases no reserve.
 */
export async function releaseOutcome(
  trx: Tx,
  tx: ChainTx,
  outcome: { sent: Mined } | { reverted: Mined } | { dropped: true },
): Promise<boolean> {
  const members = await reserves.releasePayments(trx, tx.id);
  if (!members.length) return false;
  const ids = members.map((m) => m.paymentId);
  if ('sent' in outcome) {
    for (const m of members.filter((x) => x.settles)) await payments.markSettled(trx, m.paymentId, outcome.sent.transactionHash);
    await recordTransferOutcome(trx, 'settle', tx, { sent: outcome.sent }, ids);
  } else await recordTransferOutcome(trx, 'settle', tx, { released: 'reverted' in outcome ? outcome.reverted : null }, ids);
  await reserves.releaseOutcome(trx, tx.id, 'sent' in outcome);
  return true;
}
