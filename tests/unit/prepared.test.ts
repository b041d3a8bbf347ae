import knexFactory from 'knex';
import { preparedStatement } from '../../src/db/prepared';

// Named prepared statements must name their columns: one that reads `*` fails on every connection that
// prepared it once a migration adds a column ("cached plan must not change result type").
describe('preparedStatement', () => {
  const db = knexFactory({ client: 'pg' }); // builds SQL only; never connects

  it.each([
    'SELECT * FROM payments WHERE id = ?',
    'SELECT p.*, now() FROM payments p WHERE id = ?',
    'SELECT a.id, p.* FROM payments p, assets a',
  ])('refuses SQL that reads *: %s', (sql) => {
    expect(() => preparedStatement('x', sql)).toThrow(/reads \*: name the columns/);
  });

  it('runs the SQL under its name, with positional bindings (arithmetic * is allowed)', () => {
    const statement = preparedStatement('paygate_test', 'SELECT id, amount * 2 AS twice FROM payments WHERE id = ?');
    const sql = statement(db, ['pay_1']).toSQL();
    expect(sql.toNative()).toEqual({ sql: 'SELECT id, amount * 2 AS twice FROM payments WHERE id = $1', bindings: ['pay_1'] });
    expect(sql.options).toEqual({ name: 'paygate_test' });
  });
});
