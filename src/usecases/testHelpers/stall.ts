import type { Db } from '../../db/knex';
import type { EvmChain } from '../../chain/evm';
import { developmentChain } from '../../chain/devnetCheats';
import { stallsAsked, stallTaken } from '../../db/testHelpersRepo';
import type { ChainTx } from '../../db/relayer';
import type { Fees } from '../../domain/fees';

/** What of a submission (src/usecases/relayer/submissions.ts) a stall changes: its fees, and what runs as it is stored. */
interface Stallable {
  tx: { paymentId?: string | null } & Partial<Fees>;
  fees: Fees;
  guard?: (trx: Db, stored: ChainTx[]) => Promise<void>;
}

/**
 * The stall test helper, where the relayer signs (src/usecases/relayer/submissions.ts): on a development chain, the
 * submissions of a payment whose stall was asked offer fees no block takes (half the base fee), recorded as offered,
 * and the request is taken in the transaction that stores them. The relayer's stuck-transaction handling does the rest
 * (src/usecases/relayer/fees.ts). On any other chain nothing is read.
 */
export async function withStalls<S extends Stallable>(db: Db, chain: EvmChain, subs: S[]): Promise<S[]> {
  if (!chain.development) return subs;
  const asked = await stallsAsked(
    db,
    subs.flatMap((s) => (s.tx.paymentId ? [s.tx.paymentId] : [])),
  );
  if (!asked.size) return subs;
  const fees = await developmentChain(chain).stalledFees();
  return subs.map((s) => {
    const paymentId = s.tx.paymentId;
    if (!paymentId || !asked.has(paymentId)) return s;
    const guard = s.guard;
    const stalled: Stallable = {
      fees,
      tx: { ...s.tx, ...fees },
      guard: async (trx, stored) => {
        await guard?.(trx, stored);
        if (stored.some((t) => t.paymentId === paymentId)) await stallTaken(trx, paymentId);
      },
    };
    return { ...s, ...stalled };
  });
}
