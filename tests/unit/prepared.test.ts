import { preparedStatement } from '../../src/db/prepared';

// Named prepared statements must name their columns: one that reads `*` fails on every connection that
// prepared it once a migration adds a column ("cached plan must not change result type"). How they run (on
// the pool and in a transaction) is tested against PostgreSQL: tests/integration/prepared.test.ts.
describe('preparedStatement', () => {
  it.each([
    'SELECT * FROM payments WHERE id = ?',
    'SELECT p.*, now() FROM payments p WHERE id = ?',
    'SELECT a.id, p.* FROM payments p, assets a',
  ])('refuses SQL that reads *: %s', (sql) => {
    expect(() => preparedStatement('x', sql)).toThrow(/reads \*: name the columns/);
  });

  it('allows arithmetic *', () => {
    expect(() => preparedStatement('x', 'SELECT id, amount * 2 AS twice FROM payments WHERE id = ?')).not.toThrow();
  });

  it('refuses identifier bindings (??): they are not values', () => {
    expect(() => preparedStatement('x', 'SELECT ?? FROM payments')).toThrow(/identifier/);
  });
});
