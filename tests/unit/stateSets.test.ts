// Each state set has one home in src/domain; db/schema.sql spells some of them again in check constraints and
// partial indexes (the database cannot import TypeScript). This holds those spellings to the domain's sets, so a
// new status or purpose that one side learns and the other does not fails here, not in production.
import fs from 'node:fs';
import path from 'node:path';
import { PAYING_PURPOSES, REVERT_CAUSES, TX_GONE, TX_OPEN, TX_PURPOSES, TX_STATUSES } from '../../src/domain/chainTx';
import { LAPSE, PAYMENT_STATUSES } from '../../src/domain/payment';
import { REFUND_OPEN, REFUND_STATUSES } from '../../src/domain/refund';
import { inSet, sqlList } from '../../src/db/stateSql';

const schema = fs.readFileSync(path.join(__dirname, '../../db/schema.sql'), 'utf8');

/** The line of db/schema.sql that defines `name` (an index or a constraint). */
function definition(name: string): string {
  const line = schema.split('\n').find((l) => new RegExp(`\\b${name}\\b`).test(l) && /CREATE .*INDEX|CONSTRAINT/.test(l));
  if (!line) throw new Error(`db/schema.sql defines no ${name}`);
  return line;
}

/** The string constants the SQL after `column` compares it with (`= ANY (ARRAY[...])`, `<> ALL (...)`, `= '...'`). */
function constants(sql: string, column: string): string[] {
  const at = sql.search(new RegExp(`\\(?${column} (=|<>) `));
  if (at < 0) throw new Error(`no comparison of ${column} in: ${sql}`);
  const rest = sql.slice(at);
  const array = /^\(?\w+ (?:=|<>) (?:ANY|ALL) \(ARRAY\[([^\]]*)\]\)/.exec(rest);
  const one = /^\(?\w+ (?:=|<>) '([^']*)'::text/.exec(rest);
  const list = array ? array[1] : one ? `'${one[1]}'::text` : null;
  if (list === null) throw new Error(`cannot read the constants of ${column} in: ${rest}`);
  return [...list.matchAll(/'([^']*)'::text/g)].map((m) => m[1]).sort();
}

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('db/schema.sql spells the domain state sets as the domain does', () => {
  it.each([
    ['chain_transactions_status_check', 'status', TX_STATUSES],
    ['chain_transactions_purpose_check', 'purpose', TX_PURPOSES],
    ['chain_transactions_revert_cause_check', 'revert_cause', REVERT_CAUSES],
    ['refunds_status_check', 'status', REFUND_STATUSES],
    ['payments_status_check', 'status', PAYMENT_STATUSES],
  ])('check constraint %s allows exactly the domain set', (name, column, set) => {
    expect(constants(definition(name), column)).toEqual(sorted(set));
  });

  it.each([
    ['chain_transactions_open_idx', 'status', TX_OPEN],
    ['chain_transactions_payment_refund_idx', 'status', TX_OPEN],
    ['chain_transactions_payment_step_idx', 'status', TX_GONE],
    ['chain_transactions_reverted_idx', 'purpose', PAYING_PURPOSES],
    ['refunds_open_idx', 'status', REFUND_OPEN],
    ['payments_open_expiry_idx', 'status', LAPSE.from],
  ])('partial index %s covers exactly the domain set', (name, column, set) => {
    expect(constants(definition(name), column)).toEqual(sorted(set));
  });

  it('the sets are subsets of their state lists', () => {
    for (const s of [...TX_OPEN, ...TX_GONE]) expect(TX_STATUSES).toContain(s);
    expect(sorted([...TX_OPEN, ...TX_GONE, 'confirmed'])).toEqual(sorted(TX_STATUSES));
    for (const p of PAYING_PURPOSES) expect(TX_PURPOSES).toContain(p);
    for (const s of REFUND_OPEN) expect(REFUND_STATUSES).toContain(s);
  });

  it('renders a set as an SQL list of quoted constants', () => {
    expect(sqlList(TX_OPEN)).toBe("('pending', 'mined')");
    expect(inSet('c.status', REFUND_OPEN)).toBe("c.status IN ('pending', 'requires_funding')");
    expect(sqlList(["it's"])).toBe("('it''s')");
  });
});
