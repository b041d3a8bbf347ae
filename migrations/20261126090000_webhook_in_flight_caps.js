// Why: attempts in flight are capped per endpoint and per account across all processes (one partner's slow
// receiver must not take every delivery slot). A delivery is claimed by writing a lease on its row; a claim
// counts the account's leases in force and is refused at a cap. Claims of one account take turns on a
// transaction-scoped advisory lock (two-key form, class 0x77686b "whk": apart from the one-key locks of the
// migrations and idempotency keys), and count after the lock is granted, so they see each other's leases.
//
// The claims are functions so that each is one round trip: in READ COMMITTED a VOLATILE function's statements
// take fresh snapshots, so the count after the lock sees every lease committed before it (one plain SQL
// statement would count with the snapshot taken before it waited for the lock).
//
// Two claims: one delivery by id (a job queued before the caps, which does not name its account), and a
// batch of an account's deliveries (what workers use).
//
// Indexes: the leases in force (a small partial index: a lease is cleared when its attempt is recorded; one
// left by a dead process stays until the delivery is claimed again); and (endpoint_id, next_attempt_at) for
// "the endpoint's next due delivery", which replaces the index on endpoint_id alone (it covers it).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
  await knex.raw(`CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (account_id, endpoint_id)
    WHERE status = 'pending' AND locked_until IS NOT NULL`);
  await knex.raw(`CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at, id)
    WHERE status = 'pending'`);
  await knex.raw('DROP INDEX webhook_deliveries_endpoint_pending_idx');

  // One delivery (a job's), if it is due and unleased and its endpoint and account are below their caps.
  await knex.raw(`
    CREATE FUNCTION webhook_claim_delivery(p_id text, p_lease_ms double precision, p_token text, p_per_endpoint int, p_per_account int)
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
          WHERE d.id = p_id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
            AND d.next_attempt_at <= now() + interval '1 second'
            AND (SELECT count(*) FROM live) < p_per_account
            AND (SELECT count(*) FROM live WHERE live.endpoint_id = d.endpoint_id) < p_per_endpoint
          RETURNING d.*)
        SELECT * FROM c;
    END $$`);

  // Up to p_limit of the account's deliveries within the caps: the ones named (their jobs are due, with a
  // second of tolerance for the clocks, as for a single claim), and the account's due deliveries waiting (at
  // their cap earlier, or their job lost). Spread over the endpoints: each candidate's place in line is its
  // endpoint's leases in force plus its rank in the endpoint's queue (due first), the lowest go first, so
  // one slow endpoint does not take its account's whole share; none beyond an endpoint's cap.
  await knex.raw(`
    CREATE FUNCTION webhook_claim_deliveries(p_account text, p_ids text[], p_limit int, p_lease_ms double precision,
      p_per_endpoint int, p_per_account int)
    RETURNS SETOF webhook_deliveries LANGUAGE plpgsql VOLATILE AS $$
    BEGIN
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
          WHERE d.id = ANY (p_ids) AND d.account_id = p_account AND d.status = 'pending'
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
          FROM pick WHERE d.id = pick.id AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
          RETURNING d.*)
        SELECT * FROM c;
    END $$`);
};

exports.down = async function down() {
  throw new Error('Migrations are forward-only.');
};
