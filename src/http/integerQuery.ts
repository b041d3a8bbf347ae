import type { Issue } from '../domain/errors';

// Integer query values are checked on their raw text, because Ajv sees them only after coercion to a
// JavaScript number, which hides two kinds of invalid input:
// - Text that is not an integer but whose number is: "3.402823466e+38" and "1e1" are Number.isInteger,
//   so `type: integer` alone accepted them (found by the contract gate: `maxPollMs=3.402823466e%2B38` on a
//   confirm was answered 200). An integer in a query is written in decimal digits, with an optional sign.
// - Values outside int64: near 2^63 doubles are 1024 apart, so "9223372036854775808" (2^63) and
//   "9223372036854775807" (the maximum) become the same number and `format: int64` accepted both (found by
//   the gate once its cases reached real payments).
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const DECIMAL = /^[+-]?\d+$/;

interface IntegerSchema {
  type?: unknown;
  format?: string;
}
interface QueryParameter {
  in: string;
  name: string;
  schema?: IntegerSchema & { oneOf?: IntegerSchema[] };
}
interface IntegerParam {
  name: string;
  int64: boolean;
  /** An integer or a string (`oneOf`, the time filters: Unix seconds or a date-time). */
  orText: boolean;
}

/** The integer query parameters of each operation, found once (the request path only reads them). */
const integerParams = new WeakMap<object, IntegerParam[]>();
function integersOf(op: { parameters?: unknown }): IntegerParam[] {
  let found = integerParams.get(op);
  if (!found) {
    found = [];
    for (const p of (op.parameters ?? []) as QueryParameter[]) {
      if (p.in !== 'query') continue;
      const integer = p.schema?.type === 'integer' ? p.schema : p.schema?.oneOf?.find((s) => s.type === 'integer');
      if (integer) found.push({ name: p.name, int64: integer.format === 'int64', orText: integer !== p.schema });
    }
    integerParams.set(op, found);
  }
  return found;
}

/**
 * Issues for integer query parameters of `op` whose raw text is not a decimal integer, or lies outside int64.
 * `query` is the query as the validator parsed it (openapi-backend's router: qs, after dropping the first `?`),
 * so these are the very values Ajv judged: a value that is not text (`limit[a]=1`) is an issue too.
 */
export function integerQueryIssues(op: { parameters?: unknown }, query: () => Record<string, unknown>): Issue[] {
  const params = integersOf(op);
  if (!params.length) return [];
  const parsed = query();
  const out: Issue[] = [];
  for (const { name, int64, orText } of params) {
    const given = parsed[name];
    if (given === undefined) continue;
    for (const text of Array.isArray(given) ? given : [given]) {
      // Text that is no number at all was judged by the string branch; text that reads as a number ("1e9", " 12")
      // was taken as the integer, and must be written as one.
      if (orText && typeof text === 'string' && !DECIMAL.test(text) && Number.isNaN(Number(text))) continue;
      if (typeof text !== 'string' || !DECIMAL.test(text)) {
        out.push({ field: name, message: 'must be an integer written in decimal digits' });
        break;
      }
      if (int64 && (BigInt(text) > INT64_MAX || BigInt(text) < INT64_MIN)) {
        out.push({ field: name, message: 'must be an integer within the int64 range' });
        break;
      }
    }
  }
  return out;
}
