import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { AppError, ErrorCode, ERRORS, Issue } from '../domain/errors';
import { DB_RETRY_AFTER_SECONDS } from '../db/unavailable';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  issues?: Issue[];
  requestId: string;
}

export function errorBody(err: AppError, requestId: string): ErrorBody {
  const body: ErrorBody = { code: err.code, message: err.message, requestId };
  if (err.issues?.length) body.issues = err.issues;
  return body;
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

export function sendError(ctx: Context, err: AppError, requestId: string): string {
  const text = JSON.stringify(errorBody(err, requestId));
  sendJson(ctx, err.status, text, err.headers);
  return text;
}

export const internalError = () => new AppError('internal_error', ERRORS.internal_error.message);

/** 503: the database is down, restarting, out of connections or too slow; the client should retry. */
export const databaseUnavailable = (message = 'The database is unavailable; retry later.') =>
  new AppError('service_unavailable', message, undefined, { 'Retry-After': String(DB_RETRY_AFTER_SECONDS) });
