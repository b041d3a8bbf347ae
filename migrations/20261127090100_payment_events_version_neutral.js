// Why: payment_events.data held the payment already rendered for the wire (the 2026-02-19.preview
// PaymentEventSnapshot: `amount: {unit: "iso4217/USD", value}`, `expiresAt` in Unix seconds, `txId`), so an
// event could not be shown in another shape once an API version changes it. It now holds version-neutral
// facts (src/domain/paymentEvent.ts: currency and amountMinor, tokenAsset and tokenAmount, txHash, ISO times),
// and src/wire/ renders them per version. This rewrites the events written before, in both directions.

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** The fields both shapes keep as they are. */
const SAME = ['paymentId', 'merchantId', 'referenceId', 'status', 'failureCode', 'cancelledReason', 'refundedAt', 'createdAt', 'version']
  .map((f) => `'${f}', data->'${f}'`)
  .join(', ');

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`
    UPDATE payment_events SET data = jsonb_build_object(
      ${SAME},
      'currency', to_jsonb(substr(data->'amount'->>'unit', length('iso4217/') + 1)),
      'amountMinor', data->'amount'->'value',
      'tokenAsset', CASE WHEN jsonb_typeof(data->'tokenAmount') = 'object'
        THEN to_jsonb(substr(data->'tokenAmount'->>'unit', length('caip19/') + 1)) END,
      'tokenAmount', CASE WHEN jsonb_typeof(data->'tokenAmount') = 'object' THEN data->'tokenAmount'->'value' END,
      'txHash', data->'txId',
      'expiresAt', to_jsonb(to_char(to_timestamp((data->>'expiresAt')::double precision) AT TIME ZONE 'UTC', ${ISO})))
    WHERE data->'amount' IS NOT NULL`);
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.raw(`
    UPDATE payment_events SET data = jsonb_build_object(
      ${SAME},
      'isFinal', to_jsonb(data->>'status' IN ('succeeded', 'failed', 'expired', 'cancelled')),
      'amount', jsonb_build_object('unit', 'iso4217/' || (data->>'currency'), 'value', data->'amountMinor'),
      'tokenAmount', CASE WHEN jsonb_typeof(data->'tokenAsset') = 'string'
        THEN jsonb_build_object('unit', 'caip19/' || (data->>'tokenAsset'), 'value', data->'tokenAmount') END,
      'txId', data->'txHash',
      'expiresAt', to_jsonb(floor(extract(epoch FROM (data->>'expiresAt')::timestamptz))::bigint))
    WHERE data->'amountMinor' IS NOT NULL`);
};
