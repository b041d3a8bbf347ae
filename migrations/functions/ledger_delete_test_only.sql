-- The ledger stays append-only, with one exception (docs/testmode.md): `admin testmode reset` removes the journals
-- of an account's test scope, and only those, in a transaction where it set paygate.test_reset. A journal's scope
-- is its account, or its payment's account.
CREATE OR REPLACE FUNCTION ledger_delete_test_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_journal bigint;
BEGIN
  IF TG_TABLE_NAME = 'ledger_entries' THEN
    v_journal := OLD.journal_id;
  ELSE
    v_journal := OLD.id;
  END IF;
  IF coalesce(current_setting('paygate.test_reset', true), '') <> 'on' OR NOT EXISTS (
    SELECT 1 FROM ledger_journals j LEFT JOIN payments p ON p.id = j.payment_id
      JOIN accounts a ON a.id = coalesce(j.account_id, p.account_id)
    WHERE j.id = v_journal AND NOT a.livemode
  ) THEN
    RAISE EXCEPTION 'the ledger is append-only: DELETE on % refused', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END $$;
