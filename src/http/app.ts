import Koa from 'koa';
import type { Db } from '../db/knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { ChainWork } from '../domain/chain';
import type OpenAPIBackend from 'openapi-backend';
import type { Backends } from './backends';
import { HostedContract } from './hosted/contract';
import type { HandlerMap } from './handlerTypes';
import { KeyCache } from './keyCache';
import { KeyUsage } from './keyUsage';
import type { ConcurrencyCap, SharedRateLimiter } from './rateLimit';
import type { ChangeHub } from '../events/changeHub';
import type { WebhookWork } from '../jobs/webhooks/queue';
import { projectRoot } from '../paths';
import type { Metrics } from '../metrics';
import { dashboardRoutes } from './dashboard/routes';
import { opsRoutes } from './ops';
import { api } from './pipeline/api';
import { envelope } from './pipeline/envelope';
import { RequestLimits } from './pipeline/limits';
import { pages } from './pipeline/pages';
import { dashboardPages } from './dashboard/pages';
import type { RequestState } from './pipeline/state';
import { AppError } from '../domain/errors';
import { ConfirmChecks } from '../usecases/gateway/confirmChecks';

export interface AppDeps {
  config: Config;
  db: Db;
  log: Logger;
  backends: Backends;
  /** The hosted pages' JSON routes' document (spec/internal/hosted.yaml): createHostedBackend. */
  hostedBackend: OpenAPIBackend;
  handlers: HandlerMap;
  hub: ChangeHub;
  chainWork: ChainWork;
  webhookWork: WebhookWork;
  metrics: Metrics;
  /** True once graceful shutdown has begun (server.ts). */
  draining: () => boolean;
  limits: { limiter: SharedRateLimiter; longPolls: ConcurrencyCap };
}

/**
 * The request pipeline, in order: the envelope (request id, the one error body, log and metrics) -> the
 * operational routes (ops.ts) -> docs and hosted pages -> the dashboard's JSON routes (dashboard/routes.ts: its
 * /dashboard/api/ goes on to the API stages with the session's caller) -> the API stages (src/http/pipeline/api.ts lists
 * them, one file each).
 */
export function createApp(deps: AppDeps): Koa {
  const { config, db, log, backends, handlers, hub, chainWork, webhookWork, metrics, draining } = deps;
  const { limiter, longPolls } = deps.limits;
  const keys = new KeyCache(() => hub.listening);
  hub.onKeyRevoked((keyId) => keys.revoke(keyId));
  // app.proxy stays off: no Koa getter reads X-Forwarded-* headers; who a client is, is clientAddress.ts's to say.
  const app = new Koa<RequestState>();

  const limits = new RequestLimits(config.limits, limiter, longPolls);

  app.use(envelope({ log, metrics, draining }));
  app.use(opsRoutes({ db, metrics, metricsToken: config.metricsToken, draining }));
  const confirmChecks = new ConfirmChecks(chainWork, limits.takeConfirmCheck, config.limits.confirmRefusalCacheMs);
  const contract = new HostedContract(deps.hostedBackend, config.bodyLimitBytes, config.validateResponses ? log : null);
  app.use(dashboardPages(projectRoot));
  app.use(pages({ root: projectRoot, config, db, hub, limiter, longPolls, chainWork, confirmChecks, contract }));
  app.use(dashboardRoutes({ config, db, limiter }));
  app.use(
    api({
      db,
      config,
      log,
      handlers,
      hub,
      chainWork,
      confirmChecks,
      webhookWork,
      backends,
      keys,
      usage: new KeyUsage(db, log),
      limits,
    }),
  );
  return app;
}

/**
 * A process that only works the queues (ROLE=worker) answers the operational routes (health, readiness,
 * metrics) and nothing else: an API request gets the one error body, 404 `not_found`, saying where to send it.
 */
export function createWorkerApp(deps: Pick<AppDeps, 'config' | 'db' | 'log' | 'metrics' | 'draining'>): Koa {
  const { config, db, log, metrics, draining } = deps;
  const app = new Koa<RequestState>();
  app.use(envelope({ log, metrics, draining }));
  app.use(opsRoutes({ db, metrics, metricsToken: config.metricsToken, draining }));
  app.use(() => {
    throw new AppError(
      'not_found',
      'This process only runs background work (ROLE=worker); API requests go to a process with ROLE=api or all.',
    );
  });
  return app;
}
