import type { HostedFacts } from '../../domain/paymentEvent';
import { Db, knexOf } from '../knex';
import { isoSql } from '../payments/rows';
import { PAID_TO_COLLECTOR } from '../relayer/transactions';

// What the hosted 2026-05-18 payload shows beyond the event's own record (src/wire/hosted/event.ts): when each of
// the payment's stages began (its events up to this one: a later event never changes an earlier one's body), the
// chain facts of the committed option, the fee terms as the settlement applies them, and what reached the merchant.
// Read when a delivery to an endpoint in that format is attempted; every fact here is fixed once written.
const FACTS_SQL = `
  SELECT p.chain_id, p.buyer_account, s.decimals, p.settlement_amount::text AS settlement_amount, p.settlement_tx_hash,
    -- The fee as recordCollected takes it: only from what a collector received, none on a refund's funding.
    (o.id IS NOT NULL AND ${PAID_TO_COLLECTOR} AND NOT EXISTS (SELECT 1 FROM refund_fundings f WHERE f.payment_id = p.id)) AS charged,
    coalesce(p.fee_base_minor, a.fee_base_minor)::text AS fee_base_minor, coalesce(p.fee_bps, a.fee_bps) AS fee_bps,
    (SELECT coalesce(json_object_agg(ev.type, ev.at), '{}') FROM (
       SELECT DISTINCT ON (type) type, ${isoSql('created_at')} AS at FROM payment_events
       WHERE payment_id = p.id AND version <= ? ORDER BY type, version) ev) AS stage_times
  FROM payments p JOIN accounts a ON a.id = p.account_id LEFT JOIN assets s ON s.id = p.token_asset
    LEFT JOIN payment_options o ON o.id = p.option_id
  WHERE p.id = ?`;

interface FactsRow {
  chain_id: string | null;
  buyer_account: string | null;
  decimals: number | null;
  settlement_amount: string | null;
  settlement_tx_hash: string | null;
  charged: boolean | null;
  fee_base_minor: string;
  fee_bps: number;
  stage_times: Record<string, string>;
}

/** The facts of the payment as of its event at `version`; undefined when the payment is gone. */
export async function hostedFacts(db: Db, paymentId: string, version: number): Promise<HostedFacts | undefined> {
  const { rows } = await knexOf(db).raw(FACTS_SQL, [version, paymentId]);
  const r = rows[0] as FactsRow | undefined;
  if (!r) return undefined;
  return {
    chainId: r.chain_id,
    buyerAccount: r.buyer_account,
    decimals: r.decimals,
    fee: r.charged ? { baseMinor: BigInt(r.fee_base_minor), bps: Number(r.fee_bps) } : { baseMinor: 0n, bps: 0 },
    settledAmount: r.settlement_amount,
    settlementTxHash: r.settlement_tx_hash,
    stageTimes: r.stage_times,
  };
}
