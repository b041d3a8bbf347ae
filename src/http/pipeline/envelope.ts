import type { Middleware } from 'koa';
import type { Logger } from '../../logger';
import type { Metrics } from '../../metrics';
import { AppError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { STABLE_VERSION } from '../../domain/versions';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { loggablePath } from '../logPath';
import { databaseUnavailable, internalError, sendError } from '../render';
import type { RequestState } from './state';

export interface EnvelopeDeps {
  log: Logger;
  metrics: Metrics;
  /** True once graceful shutdown has begun (server.ts). */
  draining: () => boolean;
}

/**
 * The outermost stage: gives the request its id, renders any error as the one error body, sets PAY-Version,
 * and logs and counts the request once it is answered.
 */
export function envelope({ log, metrics, draining }: EnvelopeDeps): Middleware<RequestState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = newId('req');
    ctx.state.requestId = requestId;
    ctx.state.version = STABLE_VERSION;
    ctx.set('Request-Id', requestId);
    try {
      await next();
    } catch (e) {
      // PostgreSQL refuses NUL in text (22021): the schemas keep it out of stored fields; anything that
      // still carries one is bad input, never a 500.
      const unavailable = !(e instanceof AppError) && isDatabaseUnavailable(e);
      const err =
        e instanceof AppError
          ? e
          : (e as { code?: string }).code === '22021'
            ? new AppError('invalid_params', 'Text may not contain NUL (U+0000) characters.')
            : unavailable
              ? databaseUnavailable()
              : internalError();
      if (err.code === 'internal_error') log.error({ err: e, requestId }, 'unhandled error');
      else if (unavailable) log.warn({ err: (e as Error).message, code: (e as { code?: string }).code, requestId }, 'database unavailable');
      sendError(ctx, err, requestId, ctx.state.operationId);
    }
    ctx.set('PAY-Version', ctx.state.version);
    // While draining, every response closes its connection, so keep-alive clients reconnect elsewhere.
    if (draining()) ctx.set('Connection', 'close');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // The request log's path is redacted segment by segment: not worth doing for a line the level drops
    // (10,000 long-polls woken by one change all end here at once).
    if (log.isLevelEnabled('info'))
      log.info(
        { requestId, method: ctx.method, path: loggablePath(ctx.path), status: ctx.status, operationId: ctx.state.operationId, ms },
        'request',
      );
    metrics.observe(ctx.state.operationId ?? ctx.state.route ?? 'unmatched', ctx.method, ctx.status, ms / 1e3);
  };
}
