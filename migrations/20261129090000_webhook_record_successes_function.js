// Why: recording a batch of successful attempts was one statement planned on every call (0.3 ms of planning,
// as much as it took to run, once per batch). It is now a function whose plan is made once per connection and
// made again when the table's statistics change (an ANALYZE, which the dispatcher asks for when a backlog
// builds: see src/jobs/webhookJobs.ts). Its effects are the statement's, unchanged; processes of the previous
// release keep sending the statement during a rolling deploy.

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  // Successful attempts, any number at once (one per array position): each attempt, its delivery succeeded
  // (only while its lease is the one the attempt was made under), and the end of its endpoint's failure run.
  // Endpoints are locked in the order of their ids, so that batches of several processes cannot deadlock.
  await knex.raw(`
    CREATE FUNCTION webhook_record_successes(p_attempt_ids text[], p_delivery_ids text[], p_event_ids text[],
      p_endpoint_ids text[], p_attempted_at timestamptz[], p_duration_ms int[], p_response_status int[], p_lease_tokens text[])
    RETURNS void LANGUAGE plpgsql VOLATILE
    SET plan_cache_mode = force_generic_plan AS $$
    BEGIN
      WITH o AS (
        SELECT * FROM unnest(p_attempt_ids, p_delivery_ids, p_event_ids, p_endpoint_ids, p_attempted_at, p_duration_ms,
          p_response_status, p_lease_tokens)
          AS o(attempt_id, delivery_id, event_id, endpoint_id, attempted_at, duration_ms, response_status, lease_token)),
      a AS (
        INSERT INTO webhook_attempts (id, delivery_id, event_id, endpoint_id, attempted_at, duration_ms, response_status, error, succeeded)
        SELECT o.attempt_id, o.delivery_id, o.event_id, o.endpoint_id, o.attempted_at, o.duration_ms, o.response_status, NULL, true FROM o),
      d AS (
        UPDATE webhook_deliveries d SET status = 'succeeded', attempts = d.attempts + 1, next_attempt_at = NULL, locked_until = NULL,
          lease_token = NULL, enqueued_at = NULL, updated_at = now()
        FROM o WHERE d.id = o.delivery_id AND d.status = 'pending' AND d.lease_token = o.lease_token),
      w AS (
        SELECT e.id FROM webhook_endpoints e WHERE e.id IN (SELECT o.endpoint_id FROM o) AND e.failing_since IS NOT NULL
        ORDER BY e.id FOR NO KEY UPDATE)
      UPDATE webhook_endpoints SET failing_since = NULL, last_failed_at = NULL WHERE id IN (SELECT w.id FROM w);
    END $$`);
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
