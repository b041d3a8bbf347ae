import { Db, inTransaction } from '../../db/knex';
import { DataKeyring, seal, sealedHeader, unseal, UnsealError } from '../../domain/sealed';
import { replaceSealed, rowsNotSealedWith, SEALED_COLUMNS, sealedAt } from '../../db/sealedColumnsRepo';

// `admin keys rotate-data`: after a new key is put first in DATA_ENCRYPTION_KEYS (and every process runs
// with that keyring), every sealed value still under an older key (or under no key id: rows written before
// key ids), or sealed before values were bound to their row and column, is opened and sealed again with the
// newest key for its row and column, a batch per transaction. Values already sealed that way are not read, so running it
// again does nothing; once it reports no unreadable value, the older keys can be removed from the keyring.

export interface ColumnCounts {
  /** Values sealed again with the newest key. */
  resealed: number;
  /** Values that no key of the keyring opens (left as they are). */
  unreadable: number;
  /** Values changed by someone else between the read and the write (left as the other writer made them). */
  changedMeanwhile: number;
}

export interface RotationReport {
  keyId: string;
  batchSize: number;
  resealed: number;
  unreadable: number;
  columns: Record<string, ColumnCounts>;
}

export async function resealAll(db: Db, keys: DataKeyring, batchSize: number): Promise<RotationReport> {
  const header = sealedHeader(keys.primary.id);
  const report: RotationReport = { keyId: keys.primary.id, batchSize, resealed: 0, unreadable: 0, columns: {} };
  for (const c of SEALED_COLUMNS) {
    const counts: ColumnCounts = { resealed: 0, unreadable: 0, changedMeanwhile: 0 };
    let after: string[] | null = null;
    for (;;) {
      const rows = await rowsNotSealedWith(db, c, header, after, batchSize);
      if (!rows.length) break;
      after = rows[rows.length - 1].key;
      await inTransaction(db, async (trx) => {
        for (const row of rows) {
          const at = sealedAt(c, ...row.key);
          let text: string;
          try {
            text = unseal(keys, row.sealed, at);
          } catch (e) {
            if (!(e instanceof UnsealError)) throw e;
            counts.unreadable++;
            continue;
          }
          if (await replaceSealed(trx, c, row, seal(keys, text, at))) counts.resealed++;
          else counts.changedMeanwhile++;
        }
      });
    }
    report.columns[`${c.table}.${c.column}`] = counts;
    report.resealed += counts.resealed;
    report.unreadable += counts.unreadable;
  }
  return report;
}
