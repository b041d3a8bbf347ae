import { newId } from '../domain/ids';
import { Db, knexOf } from './knex';
import { CHANGE_CHANNEL, EVENT_RECORD_SQL } from './payments/changes';
import { QUEUE_EVENT, isoSql } from './payments/rows';

// refund.* events: a payment event (the payment's next version, its record) that also records the refund as it is
// now, queued for the webhook dispatcher like every payment event, in the caller's transaction (after the refund's
// own change, which the statement reads).

export type RefundEventType = 'refund.created' | 'refund.succeeded' | 'refund.failed';

const REFUND_RECORD_SQL = `jsonb_build_object('id', r.id, 'currency', r.currency, 'amountMinor', r.amount_minor::text,
  'tokenAsset', r.token_asset, 'tokenAmount', r.token_amount::text, 'status', r.status, 'failureCode', r.failure_code,
  'txHash', r.tx_hash, 'createdAt', ${isoSql('r.created_at')})`;

const REFUND_EVENT_SQL = `WITH r AS (SELECT * FROM refunds WHERE id = ?),
  p AS (UPDATE payments SET version = version + 1 WHERE id = (SELECT payment_id FROM r) RETURNING *),
  e AS (
    INSERT INTO payment_events (id, payment_id, account_id, type, version, record, dispatched_at)
    SELECT ?, p.id, p.account_id, ?, p.version, ${EVENT_RECORD_SQL} || jsonb_build_object('refund', ${REFUND_RECORD_SQL}), now()
    FROM p CROSS JOIN r LEFT JOIN assets a ON a.id = p.token_asset
    RETURNING id, payment_id, account_id, type
  ), ${QUEUE_EVENT}
  SELECT (SELECT pg_notify(?, e.payment_id) FROM e) AS notified`;

export async function writeRefundEvent(db: Db, refundId: string, type: RefundEventType): Promise<void> {
  await knexOf(db).raw(REFUND_EVENT_SQL, [refundId, newId('evt'), type, CHANGE_CHANNEL]);
}
