// The domain's state sets (src/domain/chainTx.ts, src/domain/refund.ts) as SQL, so each set is spelled once.

/** `('a', 'b')`: a set of constant strings as an SQL list (the values are the domain's own, never input). */
export const sqlList = (values: readonly string[]): string => `(${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;

/** SQL: `column` is one of `values`. */
export const inSet = (column: string, values: readonly string[]): string => `${column} IN ${sqlList(values)}`;
