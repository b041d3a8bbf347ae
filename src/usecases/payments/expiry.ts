import type { Db } from '../../db/knex';
import { expireDue } from '../../db/payments';

const BATCH = 200;

/**
 * Expires every open payment past its expiry, a batch at a time, and says how many. Each expiry is a
 * conditional UPDATE, so sweepers in several processes cannot expire a payment twice.
 */
export async function expireOverduePayments(db: Db): Promise<number> {
  let total = 0;
  let n;
  do {
    n = await expireDue(db, BATCH);
    total += n;
  } while (n >= BATCH);
  return total;
}
