import type { ErrorObject } from 'ajv';
import type { Issue } from '../domain/errors';

// Turns Ajv errors from openapi-backend into the error body's `issues`: body fields as JSON pointers
// (`/merchantName`), parameters by name (`limit`, `Idempotency-Key`).
export function toIssues(errors: ErrorObject[] | null | undefined, headerNames: Record<string, string>): Issue[] {
  const seen = new Set<string>();
  const out: Issue[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === 'if' || (e.keyword === 'oneOf' && out.length)) continue;
    let field = e.instancePath || '';
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
    const extra =
      e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties'
        ? ((e.params as { additionalProperty?: string; unevaluatedProperty?: string }).additionalProperty ??
          (e.params as { unevaluatedProperty?: string }).unevaluatedProperty)
        : undefined;
    if (missing) field += `/${missing}`;
    if (extra) field += `/${extra}`;
    let message = e.message ?? 'is invalid';
    if (extra) message = 'is not a known field';
    if (e.keyword === 'parse') message = 'is not valid JSON';
    const m = /^\/(requestBody|query|header|path)(\/.*)?$/.exec(field);
    if (m) {
      const rest = m[2] ?? '';
      if (m[1] === 'requestBody') field = rest || '/';
      else {
        const name = rest.slice(1).split('/')[0];
        field = m[1] === 'header' ? (headerNames[name] ?? name) : name;
        if (!rest) field = m[1];
      }
    }
    const key = `${field}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
  }
  return out.length ? out : [{ field: '/', message: 'is invalid' }];
}
