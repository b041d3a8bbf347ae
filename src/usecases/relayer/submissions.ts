import type { Db } from '../../db/knex';
import type { Address } from 'viem';
import type { Logger } from '../../logger';
import type { ChainCall, EvmChain } from '../../chain/evm';
import type { Fees } from '../../domain/fees';
import { ChainUnavailable } from '../../domain/chain';
import * as relayer from '../../db/relayer';
import { recordSettlementPlans } from '../../db/payments';
import { batches } from '../../lib/batches';
import { InsufficientBalance, reserveFunds, type Reservation } from '../ledger/records';
import { withStalls } from '../testHelpers/stall';

// One relayer key's submissions in this process, signed and stored in batches: whatever is waiting when
// the previous batch commits goes into the next one (no timer: a lone submission goes at once). A batch
// takes its nonces under one row lock and commits once, so the lock is held per batch, not per
// transaction; other processes take the same lock, so they interleave whole batches. The stored
// transactions are broadcast in nonce order while the next batch is being stored.

/** Signed under one lock: bounds the time the lock is held (signing is about a millisecond each). */
const MAX_BATCH = 50;

export interface Submission {
  tx: relayer.NewTx;
  call: ChainCall;
  fees: Fees;
  authorization?: relayer.Authorization;
  /** A settlement transfer: what it sends where, recorded with it. */
  plan?: { fee: bigint; amount: bigint; destination: string };
  /** Funds of an account that the transaction sends out of the sender: reserved in the ledger as it is stored. */
  reserve?: Reservation;
  /** Runs under the sender's nonce lock before the batch commits; throwing stores none of the batch. */
  guard?: (trx: Db, stored: relayer.ChainTx[]) => Promise<void>;
}

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';

/** A guard refuses its own submission (what it read changed): the batch's others are stored without it. */
export class GuardRefused extends Error {}

/** A batch's answer to one submission: its outcome, once the batch's transactions were broadcast (or tried). */
interface Answer {
  outcome: Promise<relayer.StoreOutcome>;
}

class SenderQueue {
  /** Broadcasts of earlier batches: the next batch's go after them (nonce order). */
  private sending: Promise<void> = Promise.resolve();
  // A unique key the batch could not foresee (another process, a conflicting claim), a guard's refusal, or an account
  // short of what one transfer reserves fails the batch: then each goes on its own, so that one submission cannot fail
  // the others. Any other failure is the batch's.
  private readonly queue = batches((subs: Submission[]) => this.store(subs), {
    max: MAX_BATCH,
    failure: (e) => (isUniqueViolation(e) || e instanceof GuardRefused || e instanceof InsufficientBalance ? 'alone' : 'batch'),
  });

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly chain: EvmChain,
    private readonly sender: Address,
  ) {}

  /** Queues `subs` together: one batch takes them all, unless they are more than a batch holds. */
  add(subs: Submission[]): Promise<relayer.StoreOutcome>[] {
    return this.queue.all(subs).map((answer) => answer.then((a) => a.outcome));
  }

  private async store(asked: Submission[]): Promise<Answer[]> {
    const subs = await withStalls(this.db, this.chain, asked);
    let outcomes: relayer.StoreOutcome[];
    try {
      outcomes = await this.storeBatch(subs);
    } catch (e) {
      // Alone, a unique key taken means it is already stored elsewhere.
      if (isUniqueViolation(e) && subs.length === 1) return [{ outcome: Promise.resolve({ kind: 'live' }) }];
      throw e;
    }
    const stored = outcomes.flatMap((o) => (o.kind === 'stored' ? [o.tx] : []));
    // Committed: broadcast (after the earlier batches), then answer; the next batch is stored meanwhile.
    const broadcast = stored.length ? (this.sending = this.sending.then(() => this.broadcast(stored))) : this.sending;
    return outcomes.map((o) => ({ outcome: o.kind === 'stored' ? broadcast.then(() => o) : Promise.resolve(o) }));
  }

  private storeBatch(subs: Submission[]): Promise<relayer.StoreOutcome[]> {
    const { chain, sender } = this;
    return relayer.storeSignedTxs(
      this.db,
      chain.caip2,
      sender,
      subs.map((s) => ({
        tx: s.tx,
        authorization: s.authorization,
        sign: (nonce: number) => chain.sign(sender, nonce, s.call, s.tx.gasLimit, s.fees),
      })),
      () => chain.pendingNonce(sender),
      async (trx, stored) => {
        for (const s of subs) await s.guard?.(trx, stored);
        const plans = subs.flatMap((s) => (s.plan && relayer.ofPayment(s.tx) ? [{ paymentId: s.tx.paymentId, ...s.plan }] : []));
        if (plans.length)
          await recordSettlementPlans(
            trx,
            plans.filter((p) => stored.some((t) => t.paymentId === p.paymentId && t.purpose === 'settle')),
          );
        const reservations = subs.flatMap((s) => {
          const tx = s.reserve && stored.find((t) => t.paymentId === s.tx.paymentId && t.purpose === s.tx.purpose);
          return tx && s.reserve ? [{ tx, ...s.reserve }] : [];
        });
        await reserveFunds(trx, reservations);
      },
    );
  }

  /** Never fails: what is not sent now, the monitor sends again. */
  private async broadcast(txs: relayer.ChainTx[]): Promise<void> {
    const sent = await Promise.all(
      txs.map((tx) =>
        this.chain.broadcast(tx.raw).catch((e) => {
          if (!(e instanceof ChainUnavailable)) throw e;
          this.log.warn({ chainId: this.chain.caip2, txHash: tx.hash, err: e.message }, 'broadcast failed; the monitor will send it again');
          return null;
        }),
      ),
    ).catch((e) => {
      this.log.error({ chainId: this.chain.caip2, err: (e as Error).message }, 'broadcast failed; the monitor will send it again');
      return txs.map(() => null);
    });
    // nonce_too_low: the monitor looks for a receipt first, and only then treats the nonce as lost.
    const ids = txs.filter((_, i) => sent[i] === 'sent' || sent[i] === 'known').map((t) => t.id);
    await relayer
      .markBroadcast(this.db, ids)
      .catch((e) => this.log.warn({ err: (e as Error).message }, 'broadcast not recorded; the monitor will send it again'));
  }
}

/** Every relayer key's submission queue in this process. */
export class Submissions {
  private readonly queues = new Map<string, SenderQueue>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
  ) {}

  /** Stores the transaction signed under the sender's next nonce, then broadcasts it; resolves once it was sent (or tried). */
  submit(chain: EvmChain, sender: Address, sub: Submission): Promise<relayer.StoreOutcome> {
    return this.queue(chain, sender).add([sub])[0];
  }

  /** Several at once, stored in one batch (one commit: all or none of them) when they fit in one. */
  submitAll(chain: EvmChain, sender: Address, subs: Submission[]): Promise<relayer.StoreOutcome[]> {
    return Promise.all(this.queue(chain, sender).add(subs));
  }

  private queue(chain: EvmChain, sender: Address): SenderQueue {
    const key = `${chain.caip2}/${sender}`;
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = new SenderQueue(this.db, this.log, chain, sender)));
    return q;
  }
}
