// Why: the statements that change deliveries they name by id (claims, recorded successes) read every pending
// delivery on each call once a backlog had built up. Their plans are made once per connection (functions with
// generic plans, prepared statements), from the statistics of webhook_deliveries, and those are taken when delivery
// keeps up, so they count about one pending delivery. A condition `status = 'pending'` lets the planner answer such a
// statement from a partial index of pending deliveries (webhook_deliveries_endpoint_due_idx, _pending_idx), which by
// those statistics holds one row, so it read the whole index and joined it with the named ids: with 1,750 pending,
// 1,400-1,500 buffers and 1-2 ms per claim and per record, under the account's claim lock (EXPLAIN ANALYZE of both
// during `make bench-webhooks`' drain). The ANALYZE the dispatcher asks for once a backlog builds came too late or
// not at all (one at most every 10 s).
//
// The same conditions are now written `status IS NOT DISTINCT FROM 'pending'`: the same test of a column that is
// never NULL, which the planner does not take as implying a partial index's `status = 'pending'`, so a delivery named
// by id is found by its primary key whatever the statistics say. The partial indexes still serve the statements that
// look for pending deliveries (the claims' candidates per endpoint, the in-flight counts, the rescue pass).
//
// Arguments, results and choices are as before: processes of the previous release call these functions unchanged
// during a rolling deploy.

const PENDING = `IS NOT DISTINCT FROM 'pending'`;

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION webhook_claim_delivery(p_id text, p_lease_ms double precision, p_token text, p_per_endpoint int, p_per_account int)
    RETURNS SETOF webhook_deliveries LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      v_account text;
    BEGIN
      SELECT d.account_id INTO v_account FROM webhook_deliveries d WHERE d.id = p_id;
      IF NOT FOUND THEN
        RETURN;
      END IF;
      PERFORM pg_advisory_xact_lock(7825515, hashtext(v_account));
      RETURN QUERY
        WITH live AS (
          SELECT l.endpoint_id FROM webhook_deliveries l
          WHERE l.account_id = v_account AND l.status = 'pending' AND l.locked_until IS NOT NULL AND l.locked_until >= now()
        ), c AS (
          UPDATE webhook_deliveries d SET locked_until = now() + p_lease_ms * interval '1 millisecond', lease_token = p_token
          WHERE d.id = p_id AND d.status ${PENDING} AND (d.locked_until IS NULL OR d.locked_until < now())
            AND d.next_attempt_at <= now() + interval '1 second'
            AND (SELECT count(*) FROM live) < p_per_account
            AND (SELECT count(*) FROM live WHERE live.endpoint_id = d.endpoint_id) < p_per_endpoint
          RETURNING d.*)
        SELECT * FROM c;
    END $$`);

  await knex.raw(`
    CREATE OR REPLACE FUNCTION webhook_claim_deliveries(p_account text, p_ids text[], p_limit int, p_lease_ms double precision,
      p_per_endpoint int, p_per_account int)
    RETURNS SETOF webhook_deliveries LANGUAGE plpgsql VOLATILE
    SET plan_cache_mode = force_generic_plan AS $$
    BEGIN
      -- For the rest of the transaction (not restored when the function returns: no SET clause names it).
      PERFORM set_config('synchronous_commit', 'off', true);
      PERFORM pg_advisory_xact_lock(7825515, hashtext(p_account));
      RETURN QUERY
        WITH live AS (
          SELECT l.endpoint_id, count(*)::int AS n FROM webhook_deliveries l
          WHERE l.account_id = p_account AND l.status = 'pending' AND l.locked_until IS NOT NULL AND l.locked_until >= now()
          GROUP BY l.endpoint_id
        ), cand AS (
          SELECT x.id, x.endpoint_id, x.next_attempt_at FROM webhook_endpoints w
          CROSS JOIN LATERAL (
            SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
            WHERE d.endpoint_id = w.id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
              AND d.next_attempt_at <= now()
            ORDER BY d.next_attempt_at, d.id LIMIT p_limit) x
          WHERE w.account_id = p_account AND w.deleted_at IS NULL
          UNION
          SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.id = ANY (p_ids) AND d.account_id = p_account AND d.status ${PENDING}
            AND (d.locked_until IS NULL OR d.locked_until < now()) AND d.next_attempt_at <= now() + interval '1 second'
        ), ranked AS (
          SELECT c.id, c.next_attempt_at,
            coalesce(live.n, 0) + row_number() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.id) AS place
          FROM cand c LEFT JOIN live ON live.endpoint_id = c.endpoint_id
        ), pick AS (
          SELECT r.id FROM ranked r WHERE r.place <= p_per_endpoint
          ORDER BY r.place, r.next_attempt_at, r.id
          LIMIT greatest(0, least(p_limit, p_per_account - (SELECT coalesce(sum(live.n), 0) FROM live)))
        ), c AS (
          UPDATE webhook_deliveries d SET locked_until = now() + p_lease_ms * interval '1 millisecond', lease_token = gen_random_uuid()::text
          FROM pick WHERE d.id = pick.id AND d.status ${PENDING} AND (d.locked_until IS NULL OR d.locked_until < now())
          RETURNING d.*)
        SELECT * FROM c;
    END $$`);

  await knex.raw(`
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
        FROM o WHERE d.id = o.delivery_id AND d.status ${PENDING} AND d.lease_token = o.lease_token),
      w AS (
        SELECT e.id FROM webhook_endpoints e WHERE e.id IN (SELECT o.endpoint_id FROM o) AND e.failing_since IS NOT NULL
        ORDER BY e.id FOR NO KEY UPDATE)
      UPDATE webhook_endpoints SET failing_since = NULL, last_failed_at = NULL WHERE id IN (SELECT w.id FROM w);
    END $$`);
};

/**
 * Nothing to undo: the previous bodies differ only in the plans they allow, and the previous release calls these
 * unchanged. (A no-op rather than a refusal, so that undoing the migrations before it stays possible.)
 */
exports.down = async function down() {};
