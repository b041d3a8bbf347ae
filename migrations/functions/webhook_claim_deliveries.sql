-- Claims up to p_limit due deliveries of one account within its caps of attempts in flight (least busy endpoint
-- first, due first), and those named in p_ids, under the account's claim lock (src/db/webhooks/claims.ts).
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
      WHERE d.id = ANY (p_ids) AND d.account_id = p_account AND d.status IS NOT DISTINCT FROM 'pending'
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
      FROM pick WHERE d.id = pick.id AND d.status IS NOT DISTINCT FROM 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
      RETURNING d.*)
    SELECT * FROM c;
END $$;
