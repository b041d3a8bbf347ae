import type { Payment } from './payment';

// What a partner is told of a settlement not done (payment details' `settlement`, docs/api.md "Settlement in
// payment details"): `pending` once an attempt failed and another is due, `failed` once it is held (after its last
// allowed attempt, or by an operator). A first attempt, or one waiting for its schedule's slot, shows nothing, as
// the hosted contract has it (null until settled). Hold reasons are written by src/usecases/relayer/settlementHolds.ts's
// callers: `reverted:<refusal>`, `simulation:<refusal>` (a ChainRefusal of src/domain/chain.ts), `operator[: text]`.

export type SettlementProblem =
  | { status: 'pending'; code: 'retrying'; message: string; attempts: number; nextAttemptAt: Date | null }
  | {
      status: 'failed';
      message: string;
      /** The chain's refusal (`token_refused`, `transaction_reverted`, …), or `held_by_operator`. */
      code: string;
      attempts: number;
      heldAt: Date;
      /** What the partner can do: change the settlement's destination (the service then retries), or ask the operator. */
      action: 'change_destination' | 'contact_operator';
    };

/** An operator's hold reason (`admin settlements hold`): its source is matched in SQL too (settlementTransfersRepo.ts). */
export const OPERATOR_HOLD = /^operator(:|$)/;

/** Whether a hold is an operator's (kept through a destination change) rather than the attempts'. */
const heldByOperator = (reason: string | null): boolean => reason !== null && OPERATOR_HOLD.test(reason);

export function settlementProblem(p: Payment): SettlementProblem | null {
  if (p.status !== 'succeeded' || p.settledAt) return null;
  if (p.settlementHeldAt) {
    if (heldByOperator(p.settlementHoldReason))
      return {
        status: 'failed',
        code: 'held_by_operator',
        message: "The service's operator holds this settlement; ask them to release it.",
        attempts: p.settlementAttempts,
        heldAt: p.settlementHeldAt,
        action: 'contact_operator',
      };
    const refusal = /^(?:reverted|simulation):([a-z_]+)$/.exec(p.settlementHoldReason ?? '')?.[1];
    return {
      status: 'failed',
      code: refusal && refusal !== 'batch' ? refusal : 'transaction_reverted',
      message:
        refusal === 'token_refused'
          ? 'The token refuses transfers to the destination (blacklisted, or the token is paused): change the destination and it is sent again.'
          : 'The settlement transfer failed on every attempt: change the destination and it is sent again.',
      attempts: p.settlementAttempts,
      heldAt: p.settlementHeldAt,
      action: 'change_destination',
    };
  }
  if (p.settlementAttempts > 0)
    return {
      status: 'pending',
      code: 'retrying',
      message: 'An attempt to send the settlement failed; it is tried again.',
      attempts: p.settlementAttempts,
      nextAttemptAt: p.settlementNextAt,
    };
  return null;
}
