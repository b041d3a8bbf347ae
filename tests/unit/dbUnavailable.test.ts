import { isDatabaseUnavailable } from '../../src/db/unavailable';

describe('which database failures are 503 service_unavailable', () => {
  const err = (message: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(message), extra);
  it.each([
    ['refused', err('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED' })],
    ['refused on every address', Object.assign(new AggregateError([err('x', { code: 'ECONNREFUSED' })], ''), { code: 'ECONNREFUSED' })],
    [
      'down, over a Unix socket',
      err('connect ENOENT /var/run/postgresql/.s.PGSQL.5432', {
        code: 'ENOENT',
        syscall: 'connect',
        address: '/var/run/postgresql/.s.PGSQL.5432',
      }),
    ],
    ['dropped', err('Connection terminated unexpectedly')],
    // knex puts the failed query in front of the driver's message
    ['dropped during a query', err('select "id" from "merchants" where "name" = \'a - b\' - Connection terminated unexpectedly')],
    ['a transaction on a broken connection', err('ROLLBACK - Client has encountered a connection error and is not queryable')],
    ['connect timeout', err('timeout expired')],
    [
      'pool acquire timeout',
      Object.assign(err('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
    ],
    ['admin shutdown', err('terminating connection due to administrator command', { code: '57P01' })],
    ['starting up', err('the database system is starting up', { code: '57P03' })],
    ['connection exception class 08', err('connection failure', { code: '08006' })],
    ['statement timeout', err('canceling statement due to statement timeout', { code: '57014' })],
    ['too many connections', err('sorry, too many clients already', { code: '53300' })],
    ['wrapped', err('query failed', { cause: err('x', { code: 'ECONNRESET' }) })],
  ])('%s', (_name, e) => expect(isDatabaseUnavailable(e)).toBe(true));
  it.each([
    ['a unique violation', err('duplicate key', { code: '23505' })],
    ['a syntax error', err('syntax error', { code: '42601' })],
    ['a bug', new TypeError('x is undefined')],
    ['a missing file', err("ENOENT: no such file or directory, open 'x'", { code: 'ENOENT', syscall: 'open' })],
    ['not an error', undefined],
  ])('not %s', (_name, e) => expect(isDatabaseUnavailable(e)).toBe(false));
});
