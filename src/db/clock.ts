// Expiry is decided by the database's clock, the one its own conditions (`expires_at <= now()`) use:
// processes whose clocks drift apart must still agree on whether a payment or a quote has expired.

/** The database time of a row read with `now() AS db_now`. */
export function readAt(row: { db_now?: unknown }): Date {
  if (!(row.db_now instanceof Date)) throw new Error('row read without db_now: expiry needs the database time of the read');
  return row.db_now;
}
