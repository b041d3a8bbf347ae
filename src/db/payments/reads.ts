import type { Knex } from 'knex';
import { canBeStoredId } from '../../domain/ids';
import type { Batches } from '../../lib/batches';
import { preparedStatement } from '../prepared';
import { Db, isTransaction } from '../knex';
import { PAYMENT_WITH_ASSET, PaymentWithAsset, Row, split } from './rows';
import { onPool, READ_BATCHING } from './pool';

const findPaymentsStatement = preparedStatement(
  'paygate_find_payments',
  `SELECT ${PAYMENT_WITH_ASSET} FROM payments p LEFT JOIN assets a ON a.id = p.token_asset WHERE p.id = ANY(?::text[])`,
  { planEachCall: true }, // its generic plan on a young table is a sequential scan (prepared.ts)
);

/** The rows of payments `ids` (one statement), in their order; undefined for an unknown id. */
async function findPayments(db: Db, ids: string[]): Promise<(Row | undefined)[]> {
  const { rows } = await findPaymentsStatement(db, [ids]);
  const byId = new Map<string, Row>(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
}
export const batchedReads = new WeakMap<Knex, Batches<string, Row | undefined>>();

export async function findPayment(db: Db, id: string): Promise<PaymentWithAsset | undefined> {
  if (!canBeStoredId(id)) return undefined;
  const row = isTransaction(db) ? (await findPayments(db, [id]))[0] : await onPool(batchedReads, db, findPayments, READ_BATCHING)(id);
  return row && split(row);
}
