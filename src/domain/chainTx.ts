// The relayer's chain transactions (docs/chain.md): what each is for and the states it goes through. The sets
// below are the one home of each rule; src/db/stateSql.ts renders them as SQL and tests/unit/stateSets.test.ts
// holds db/schema.sql's partial indexes to the same sets.

/**
 * A payment's step (`deploy`: an ERC-6492 buyer wallet's deployment, before its collect or direct; `refund`: tokens
 * sent back to the buyer); or, of no one payment, `sweep`: a retired key's own funds moved out (`admin relayer sweep`),
 * and `settle_batch`: a scheduled settlement of several payments (src/db/settlementBatchesRepo.ts).
 */
export const TX_PURPOSES = ['collect', 'direct', 'settle', 'refund', 'sweep', 'deploy', 'settle_batch'] as const;
export type TxPurpose = (typeof TX_PURPOSES)[number];
export const TX_STATUSES = ['pending', 'mined', 'confirmed', 'reverted', 'dropped'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];

/** Sent and not yet decided: it may still be mined, mined again after a reorg, or replaced at its nonce. */
export const TX_OPEN = ['pending', 'mined'] as const satisfies readonly TxStatus[];
/**
 * Proven to have moved nothing: reverted at depth, or dropped (its nonce went to another transaction, final).
 * Any other transaction of a payment's step stands in the way of a second one (a unique index says so too).
 */
export const TX_GONE = ['dropped', 'reverted'] as const satisfies readonly TxStatus[];
/** The transactions that pay a payment (they move the buyer's tokens): their reverts count in the revert budget. */
export const PAYING_PURPOSES = ['collect', 'direct'] as const satisfies readonly TxPurpose[];
/** What the chain proves caused a reverted collect or direct transaction (src/db/relayer/transactions.ts says more). */
export const REVERT_CAUSES = ['payer', 'token', 'outbid', 'congestion'] as const;
export type RevertCause = (typeof REVERT_CAUSES)[number];
