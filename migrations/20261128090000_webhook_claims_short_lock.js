// Why: a claim of an account's deliveries (webhook_claim_deliveries, migration 20261126090000) holds the account's
// claim lock until it commits, so every claim of the account waits for the one before it. Two costs were paid
// under that lock on every claim, and made one account's claims the limit of its delivery rate:
// - the commit waited for its WAL to be flushed to disk. A claim now commits asynchronously (synchronous_commit
//   off for its own transaction only): a lease lost in a database crash loses no delivery, which is pending and
//   unleased again and is claimed again (an attempt recorded under the lost lease leaves the delivery as it is: at
//   least once). The records of attempts still wait for the flush, and flush the leases written before them.
// - its query was planned again on every call: the cached plan of a function's query is re-planned for its
//   arguments while the plan for any arguments is estimated dearer, which it always was here (1-2 ms of planning
//   for a query that runs in a fraction of one). The function now always uses the plan for any arguments.
// The function's arguments, result and choice of deliveries are as before (processes of the previous release
// call it unchanged during a rolling deploy).

/** @param {import('knex').Knex} knex */
exports.up = async function up(knex) {
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
