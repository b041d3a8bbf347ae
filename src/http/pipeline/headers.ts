import { AppError } from '../../domain/errors';
import type { Operation } from '../backends';
import type { RequestContext } from './state';

const params = (op: Operation) => (op.parameters ?? []) as { name: string; in: string; required?: boolean }[];

/** Merchant-Id and Idempotency-Key, where the operation requires them (400 missing_merchant_id / missing_idempotency_key). */
export function requireHeaders(ctx: RequestContext, op: Operation): void {
  if (requiresHeader(op, 'Merchant-Id') && !ctx.get('merchant-id')) throw new AppError('missing_merchant_id');
  if (requiresHeader(op, 'Idempotency-Key') && !ctx.get('idempotency-key')) throw new AppError('missing_idempotency_key');
}

function requiresHeader(op: Operation, name: string): boolean {
  return params(op).some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === name.toLowerCase());
}

/** Lower-case header name -> the name the API document spells, for validation issues. */
export function headerNameMap(op: Operation): Record<string, string> {
  return Object.fromEntries(
    params(op)
      .filter((p) => p.in === 'header')
      .map((p) => [p.name.toLowerCase(), p.name]),
  );
}
