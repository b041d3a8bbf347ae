-- Records successful attempts in one statement: each attempt, its delivery succeeded (only under the lease it was
-- made with), and the end of its endpoint's failure run; endpoints locked in id order (src/db/webhooks/attempts.ts).
CREATE OR REPLACE FUNCTION webhook_record_successes(p_attempt_ids text[], p_delivery_ids text[], p_event_ids text[],
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
    FROM o WHERE d.id = o.delivery_id AND d.status IS NOT DISTINCT FROM 'pending' AND d.lease_token = o.lease_token),
  w AS (
    SELECT e.id FROM webhook_endpoints e WHERE e.id IN (SELECT o.endpoint_id FROM o) AND e.failing_since IS NOT NULL
    ORDER BY e.id FOR NO KEY UPDATE)
  UPDATE webhook_endpoints SET failing_since = NULL, last_failed_at = NULL WHERE id IN (SELECT w.id FROM w);
END $$;
