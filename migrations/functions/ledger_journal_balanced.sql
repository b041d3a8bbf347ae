-- A journal's entries sum to zero per asset: checked at commit (a deferred constraint trigger on ledger_entries), so
-- the entries of one journal may be inserted in any order and by any number of statements of its transaction.
CREATE OR REPLACE FUNCTION ledger_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  off record;
BEGIN
  SELECT asset, sum(amount) AS total INTO off FROM ledger_entries
    WHERE journal_id = NEW.journal_id GROUP BY asset HAVING sum(amount) <> 0 LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger journal % does not balance: % sums to %', NEW.journal_id, off.asset, off.total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
