import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { AppError, ErrorCode, ERRORS, Issue } from '../domain/errors';
import { DB_RETRY_AFTER_SECONDS } from '../db/unavailable';
import { hostedCode } from './hostedCodes';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** Our own, more specific code, where the operation answers the hosted contract's (hostedCodes.ts). */
  reason?: ErrorCode;
  issues?: Issue[];
  requestId: string;
}

/** The status and body an operation answers for an error. */
export function rendered(err: AppError, requestId: string, operationId?: string): { status: number; body: ErrorBody } {
  const { code, status } = hostedCode(operationId, err.code);
  const body: ErrorBody = { code, message: err.message, requestId };
  if (code !== err.code) body.reason = err.code;
  if (err.issues?.length) body.issues = err.issues;
  // An error raised with a status of its own (AppError's last argument) keeps it; else the (hosted) catalogue's.
  return { status: err.status !== ERRORS[err.code].status ? err.status : status, body };
}

/** Writes a JSON body already serialised, so that what is stored for idempotent replay is what was sent. */
export function sendJson(ctx: Context, status: number, text: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.body = text;
}

/** Streams a body as it is produced: Koa pipes it with backpressure, so only what the client has not read yet is held. */
export function sendStream(
  ctx: Context,
  status: number,
  stream: { body: AsyncIterable<string>; type: string },
  headers: Record<string, string> = {},
) {
  ctx.status = status;
  ctx.type = stream.type;
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.body = Readable.from(stream.body);
}

export function sendError(ctx: Context, err: AppError, requestId: string, operationId?: string): string {
  const { status, body } = rendered(err, requestId, operationId);
  const text = JSON.stringify(body);
  sendJson(ctx, status, text, err.headers);
  return text;
}

export const internalError = () => new AppError('internal_error', ERRORS.internal_error.message);

/** 503: the database is down, restarting, out of connections or too slow; the client should retry. */
export const databaseUnavailable = (message = 'The database is unavailable; retry later.') =>
  new AppError('service_unavailable', message, undefined, { 'Retry-After': String(DB_RETRY_AFTER_SECONDS) });
