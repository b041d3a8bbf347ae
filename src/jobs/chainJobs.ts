import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';
import type { Logger } from '../logger';
import type { ChainPort, ChainWork } from '../domain/chain';
import { NotYetVisible, settleTransaction, strandedPayments, submitPayment } from '../usecases/gatewayChain';

// Chain work runs on a PostgreSQL job queue (pg-boss: SKIP LOCKED, so any number of processes may work
// the same queues; a job is retried if its process dies). Requests only enqueue; nothing waits on a timer
// inside a request. Every step is idempotent (one submission per payment, conditional transitions), so
// a duplicate job is harmless.

const SUBMIT = 'chain-submit';
const CONFIRM = 'chain-confirm';

interface Job {
  paymentId: string;
  txHash?: string;
  attempt?: number;
}

export interface ChainJobs extends ChainWork {
  /** Re-enqueues processing payments that never reached the chain. */
  rescue(): Promise<number>;
  stop(): Promise<void>;
}

export async function startChainJobs(boss: PgBoss, db: Knex, chain: ChainPort, log: Logger, confirmationDelayMs: number): Promise<ChainJobs> {
  await boss.createQueue(SUBMIT, { name: SUBMIT, retryLimit: 5, retryDelay: 1 });
  await boss.createQueue(CONFIRM, { name: CONFIRM, retryLimit: 5, retryDelay: 1 });

  let submitWorker: string | undefined;
  const enqueueSubmit = async (paymentId: string) => {
    await boss.send(SUBMIT, { paymentId }, { singletonKey: paymentId });
    // Wake this process's worker now rather than at its next poll (other processes still poll).
    if (submitWorker) boss.notifyWorker(submitWorker);
  };

  // A batch fails or succeeds as a whole in pg-boss, so each job's outcome is handled on its own: a job
  // that must be tried again is sent again with a delay (bounded by its attempt count).
  const later = (queue: string, data: Job, ms: number) =>
    (data.attempt ?? 0) < 600 ? boss.send(queue, { ...data, attempt: (data.attempt ?? 0) + 1 }, { startAfter: new Date(Date.now() + ms) }) : undefined;

  // A worker fetches one batch per poll (0.5 s at most apart): the batch size bounds the throughput.
  submitWorker = await boss.work<Job>(SUBMIT, { pollingIntervalSeconds: 0.5, batchSize: 100 }, async (jobs) => {
    await Promise.all(jobs.map(async ({ data }) => {
      try {
        const txHash = await submitPayment(db, chain, data.paymentId);
        if (!txHash) return;
        log.info({ paymentId: data.paymentId, txHash }, 'payment submitted to the chain');
        await boss.send(CONFIRM, { paymentId: data.paymentId, txHash }, { startAfter: new Date(Date.now() + confirmationDelayMs) });
      } catch (e) {
        if (!(e instanceof NotYetVisible)) log.warn({ err: (e as Error).message, paymentId: data.paymentId }, 'chain submission failed; will retry');
        await later(SUBMIT, data, 1000);
      }
    }));
  });

  await boss.work<Job>(CONFIRM, { pollingIntervalSeconds: 0.5, batchSize: 100 }, async (jobs) => {
    await Promise.all(jobs.map(async ({ data }) => {
      let outcome: 'pending' | 'done' = 'pending';
      try {
        outcome = await settleTransaction(db, chain, data.paymentId, data.txHash!);
      } catch (e) {
        log.warn({ err: (e as Error).message, paymentId: data.paymentId }, 'confirmation check failed; will retry');
      }
      if (outcome === 'pending') await later(CONFIRM, data, 500);
    }));
  });

  return {
    enqueueSubmit,
    rescue: async () => {
      const ids = await strandedPayments(db, 30);
      for (const id of ids) await enqueueSubmit(id);
      return ids.length;
    },
    stop: async () => {
      await boss.offWork(SUBMIT);
      await boss.offWork(CONFIRM);
    },
  };
}
