import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { Db, ping } from '../db/knex';
import { AppError } from '../domain/errors';
import type { Metrics } from '../metrics';
import { databaseUnavailable, sendJson } from './render';
import { DB_RETRY_AFTER_SECONDS } from '../db/unavailable';

// Operational endpoints, outside the API document: answered before API routing, without an API key.
// Each sets `ctx.state.route` so request metrics label them by name (see metrics.ts).

export interface OpsDeps {
  db: Db;
  metrics: Metrics;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** True once shutdown has begun: readiness fails so load balancers stop sending new work. */
  draining: () => boolean;
}

export function opsRoutes({ db, metrics, metricsToken, draining }: OpsDeps) {
  const tokenDigest = metricsToken ? digest(metricsToken) : null;
  const reachable = databaseReachable(db);
  return async (ctx: Context, next: Next) => {
    if (ctx.method !== 'GET') return next();
    switch (ctx.path) {
      case '/healthz':
        ctx.state.route = 'healthz';
        sendJson(ctx, 200, '{"status":"ok"}');
        return;
      case '/readyz':
        ctx.state.route = 'readyz';
        if (draining())
          throw new AppError('service_unavailable', 'The service is shutting down.', undefined, {
            'Retry-After': String(DB_RETRY_AFTER_SECONDS),
          });
        if (!(await reachable())) throw databaseUnavailable('The database is not reachable.');
        sendJson(ctx, 200, '{"status":"ready"}');
        return;
      case '/metrics':
        ctx.state.route = 'metrics';
        if (tokenDigest && !bearerMatches(ctx.get('authorization'), tokenDigest)) {
          throw new AppError('invalid_token', undefined, undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
        }
        ctx.status = 200;
        ctx.type = metrics.contentType;
        ctx.body = await metrics.render();
        return;
      default:
        return next();
    }
  };
}

/** How long a readiness answer is reused: /readyz needs no credentials, so a flood of it costs one query per period. */
const READY_REUSE_MS = 1000;

/**
 * Whether the database answers: concurrent checks share one query, and a success is reused for READY_REUSE_MS. A
 * failure is not (the next check asks again, so readiness returns as soon as the database does).
 */
function databaseReachable(db: Db): () => Promise<boolean> {
  let answeredAt = -Infinity;
  let running: Promise<boolean> | null = null;
  return () => {
    if (Date.now() - answeredAt < READY_REUSE_MS) return Promise.resolve(true);
    return (running ??= ping(db)
      .then(
        () => {
          answeredAt = Date.now();
          return true;
        },
        () => false,
      )
      .finally(() => (running = null)));
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Compares digests in constant time, so response timing says nothing about the token. */
function bearerMatches(header: string, expected: Buffer): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m !== null && timingSafeEqual(digest(m[1]), expected);
}
