import knexFactory, { Knex } from 'knex';
import pg from 'pg';

// numeric/bigint columns come back as strings (never floats); money stays exact end to end.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

export type Db = Knex;

export function createDb(url: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: 'paygate' },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10000,
  });
}
