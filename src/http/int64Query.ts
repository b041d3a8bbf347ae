import type { Issue } from '../domain/errors';

// A query value is coerced to a JavaScript number before Ajv sees it, and near 2^63 doubles are 1024 apart:
// "9223372036854775808" (2^63, outside int64) and "9223372036854775807" (its maximum) become the same number,
// so `format: int64` alone accepts a value the spec refuses. The raw text decides instead (found by the
// contract gate once its cases reached real payments: `maxPollMs=9223372036854775808` was answered 200).
const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);
const DECIMAL = /^[+-]?\d+$/;

interface QueryParameter {
  in: string;
  name: string;
  schema?: { format?: string };
}

/** The int64 query parameter names of each operation, found once (the request path only reads them). */
const int64Names = new WeakMap<object, string[]>();
function namesOf(op: { parameters?: unknown }): string[] {
  let names = int64Names.get(op);
  if (!names) {
    names = ((op.parameters ?? []) as QueryParameter[]).filter((p) => p.in === 'query' && p.schema?.format === 'int64').map((p) => p.name);
    int64Names.set(op, names);
  }
  return names;
}

/** Issues for int64 query parameters of `op` whose raw decimal text lies outside the int64 range. */
export function int64QueryIssues(op: { parameters?: unknown }, querystring: string): Issue[] {
  const names = namesOf(op);
  if (!names.length || !querystring) return [];
  const raw = new URLSearchParams(querystring);
  const out: Issue[] = [];
  for (const name of names) {
    for (const v of raw.getAll(name)) {
      const text = v.trim();
      if (DECIMAL.test(text) && (BigInt(text) > MAX || BigInt(text) < MIN)) {
        out.push({ field: name, message: 'must be an integer within the int64 range' });
        break;
      }
    }
  }
  return out;
}
