import type { Db } from '../../db/knex';
import type { Logger } from '../../logger';
import type { Chains } from '../../chain/chains';
import type { Submissions } from './submissions';

// What every step of the relayer is handed (src/jobs/chainJobs.ts builds it): its own file, so the steps that need
// it (src/usecases/relayer/paymentSteps.ts, settlementHolds.ts, refundSends.ts, ...) import it without importing each other.

export interface RelayerDeps {
  db: Db;
  chains: Chains;
  log: Logger;
  /** Signs, stores and broadcasts the relayer's new transactions, in batches per key. */
  submissions: Submissions;
  /** A transaction not mined this long after it was signed is stuck (src/usecases/relayer/fees.ts says what is done). */
  stuckAfterMs: number;
  /** Failed settlement transfers: tried again after baseMs, doubling; the maxAttempts-th failure holds the settlement. */
  settlementRetry: { maxAttempts: number; baseMs: number };
  /** Reverted collect or direct transactions: submitted again after baseMs, doubling, up to maxAttempts submissions. */
  submitRetry: { maxAttempts: number; baseMs: number };
  /** Fee-raising replacements of one transaction at most. */
  maxFeeBumps: number;
  /** Funding payments of one refund at most (REFUND_FUNDING_MAX_PAYMENTS): then a refund nobody funded fails. */
  fundingMaxPayments: number;
  /** The operator's refund reserve (REFUND_RESERVE_BPS, REFUND_RESERVE_WINDOW_MINUTES); an account may override it. */
  refundReserve: { bps: number; windowMinutes: number };
  /** After a collect transaction is final: settle it. */
  startSettle(paymentId: string): Promise<void>;
  /** After a refund was created, or a refund transaction of the payment is final: send its next refund. */
  startRefund(paymentId: string): Promise<void>;
  /** After a submission lost its nonce: submit again. */
  startSubmit(paymentId: string): Promise<void>;
  /** After a submission reverted with its authorization unused: submit again in `delayMs` (from the job queue). */
  submitLater(paymentId: string, delayMs: number): Promise<void>;
}
