// The domain's state sets (src/domain/chainTx.ts, src/domain/refund.ts) as SQL, so each set is spelled once.
import { REFUND_COUNTED } from '../domain/refund';

/** `('a', 'b')`: a set of constant strings as an SQL list (the values are the domain's own, never input). */
export const sqlList = (values: readonly string[]): string => `(${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;

/** SQL: `column` is one of `values`. */
export const inSet = (column: string, values: readonly string[]): string => `${column} IN ${sqlList(values)}`;

/**
 * SQL: what of the payment whose id is the SQL expression `paymentId` is refunded or on its way back (its refunds
 * not failed, REFUND_COUNTED), summed over `column` of refunds: `token_amount` in tokens, `amount_minor` in its
 * currency's minor units.
 */
export const refundedSql = (paymentId: string, column: 'token_amount' | 'amount_minor'): string =>
  `(SELECT coalesce(sum(rc.${column}), 0) FROM refunds rc WHERE rc.payment_id = ${paymentId} AND ${inSet('rc.status', REFUND_COUNTED)})`;
