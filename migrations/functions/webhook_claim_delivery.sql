-- Claims one delivery named by id (a job from before the caps) within the account's caps of attempts in flight,
-- per endpoint and per account, under the account's claim lock (src/db/webhooks/claims.ts, claimDelivery).
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
      WHERE d.id = p_id AND d.status IS NOT DISTINCT FROM 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
        AND d.next_attempt_at <= now() + interval '1 second'
        AND (SELECT count(*) FROM live) < p_per_account
        AND (SELECT count(*) FROM live WHERE live.endpoint_id = d.endpoint_id) < p_per_endpoint
      RETURNING d.*)
    SELECT * FROM c;
END $$;
