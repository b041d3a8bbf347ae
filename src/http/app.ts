import Koa, { Context } from 'koa';
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { AppError } from '../domain/errors';
import { newId } from '../domain/ids';
import { ApiVersion, STABLE_VERSION, versionFromHeaders } from '../domain/versions';
import * as idem from '../db/idempotencyRepo';
import { authenticate, authenticateGateway } from './auth';
import type { ChainWork } from '../domain/chain';
import { Backends, Operation } from './backends';
import { readJsonBody } from './body';
import type { HandlerContext, HandlerMap, OperationId } from './handlerTypes';
import { int64QueryIssues } from './int64Query';
import { toIssues } from './issues';
import { Router } from './router';
import { KeyCache } from './keyCache';
import type { ConcurrencyCap, SharedRateLimiter } from './rateLimit';
import { databaseUnavailable, errorBody, internalError, sendError, sendJson } from './render';
import { isDatabaseUnavailable } from '../db/unavailable';
import { canonicalJson } from './canonicalJson';
import type { ChangeHub } from '../db/changeHub';
import type { WebhookWork } from '../jobs/webhookJobs';
import { DataKeyring, seal, unseal } from '../domain/sealed';
import { SEALED_BODY } from '../db/idempotencyRepo';
import { projectRoot } from '../paths';
import { docsRoutes } from './docs';
import { hostedRoutes } from './hosted/routes';
import type { Metrics } from '../metrics';
import { opsRoutes } from './ops';
import { loggablePath } from './logPath';

export interface AppDeps {
  config: Config;
  db: Knex;
  log: Logger;
  backends: Backends;
  handlers: HandlerMap;
  hub: ChangeHub;
  chainWork: ChainWork;
  webhookWork: WebhookWork;
  metrics: Metrics;
  /** True once graceful shutdown has begun (server.ts). */
  draining: () => boolean;
  limits: { limiter: SharedRateLimiter; longPolls: ConcurrencyCap };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface State {
  requestId: string;
  version: ApiVersion;
  operationId?: string;
  /** Name of a non-API route (healthz, metrics, ...): the metrics label when there is no operationId. */
  route?: string;
}

/**
 * The request pipeline, in order: request id -> version from headers -> route (404/405) -> API key (401)
 * -> version default of the account -> Merchant-Id / Idempotency-Key presence -> body (415/413/400) ->
 * contract validation (400 params_validation) -> the handler's `prepare` (network I/O, outside any
 * transaction; not for a replay) -> idempotency (replay/409/422; the handler then runs in the
 * transaction holding the key's claim) -> handler -> response
 * validation (development and tests). Errors anywhere render the one error body.
 */
export function createApp(deps: AppDeps): Koa {
  const { config, db, log, backends, handlers, hub, chainWork, webhookWork, metrics, draining } = deps;
  const routers = Object.fromEntries(Object.entries(backends).map(([v, b]) => [v, new Router(b)])) as Record<ApiVersion, Router>;
  const keys = new KeyCache();
  const { limiter, longPolls } = deps.limits;
  // The limits are per second; a longer window (RATE_LIMIT_WINDOW_MS) allows as many per second on average.
  const perSecond = (limit: number) => ({ limit: Math.max(1, Math.round((limit * config.limits.windowMs) / 1000)), windowMs: config.limits.windowMs });
  hub.onKeyRevoked((keyId) => keys.revoke(keyId));
  const app = new Koa<State>();
  app.proxy = true;

  app.use(async (ctx, next) => {
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
      const err = e instanceof AppError ? e
        : (e as { code?: string }).code === '22021' ? new AppError('invalid_params', 'Text may not contain NUL (U+0000) characters.')
        : unavailable ? databaseUnavailable()
        : internalError();
      if (err.code === 'internal_error') log.error({ err: e, requestId }, 'unhandled error');
      else if (unavailable) log.warn({ err: (e as Error).message, code: (e as { code?: string }).code, requestId }, 'database unavailable');
      sendError(ctx as unknown as Context, err, requestId);
    }
    ctx.set('PAY-Version', ctx.state.version);
    // While draining, every response closes its connection, so keep-alive clients reconnect elsewhere.
    if (draining()) ctx.set('Connection', 'close');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    log.info({ requestId, method: ctx.method, path: loggablePath(ctx.path), status: ctx.status, operationId: ctx.state.operationId, ms }, 'request');
    metrics.observe(ctx.state.operationId ?? ctx.state.route ?? 'unmatched', ctx.method, ctx.status, ms / 1e3);
  });

  app.use(opsRoutes({ db, metrics, metricsToken: config.metricsToken, draining }) as unknown as Koa.Middleware<State>);

  // Non-API routes: the rendered API reference (/docs/<version>) and the hosted buyer pages.
  const serveDocs = docsRoutes(projectRoot);
  const serveHosted = hostedRoutes({ root: projectRoot, config, db, hub, limiter, longPolls });
  app.use(async (ctx, next) => {
    const c = ctx as unknown as Context;
    if (serveDocs(c)) {
      ctx.state.route = 'docs';
      return;
    }
    if (await serveHosted(c)) {
      ctx.state.route = 'hosted';
      return;
    }
    await next();
  });

  app.use(async (ctx) => {
    const c = ctx as unknown as Context;
    const headerVersion = versionFromHeaders(ctx.headers);
    if (headerVersion) ctx.state.version = headerVersion;
    const route = (v: ApiVersion) => routers[v].match(ctx.method, ctx.path);
    let op = route(headerVersion ?? STABLE_VERSION);
    if (!op) throw notRoutable(routers[headerVersion ?? STABLE_VERSION], ctx.method, ctx.path);
    ctx.state.operationId = op.operationId; // known before auth, so a 401 is logged and counted under its operation

    const gateway = isGatewayOperation(op);
    const caller = gateway
      ? await authenticateGateway(db, { apiKey: ctx.get('api-key') || undefined, appId: ctx.get('app-id') || undefined, clientId: ctx.get('client-id') || undefined }, keys)
      : await authenticate(db, ctx.get('api-key') || undefined, keys);
    const version = headerVersion ?? (caller.defaultVersion as ApiVersion);
    ctx.state.version = version;
    if (version !== (headerVersion ?? STABLE_VERSION)) {
      op = route(version);
      if (!op) throw notRoutable(routers[version], ctx.method, ctx.path);
    }
    const operationId = op.operationId as OperationId;
    ctx.state.operationId = operationId;
    // Limits per account and per credential, shared by all processes (429 rate_limited with Retry-After).
    await limiter.take(`account:${caller.accountId}`, perSecond(config.limits.accountPerSecond));
    await limiter.take(`credential:${caller.keyId}`, perSecond(config.limits.credentialPerSecond));
    if (caller.keyType !== 'partner' && !isGatewayOperation(op)) {
      throw new AppError('forbidden', 'A wallet key may only call the gateway API.');
    }
    if (requiresHeader(op, 'Merchant-Id') && !ctx.get('merchant-id')) throw new AppError('missing_merchant_id');
    if (requiresHeader(op, 'Idempotency-Key') && !ctx.get('idempotency-key')) throw new AppError('missing_idempotency_key');

    const body = op.requestBody ? await readJsonBody(c, config.bodyLimitBytes) : undefined;
    const backend = backends[version];
    const validation = backend.validator.validateRequest(
      { method: ctx.method, path: ctx.path, headers: ctx.headers as Record<string, string>, query: ctx.querystring, body },
      op,
    );
    if (!validation.valid) {
      throw new AppError('params_validation', undefined, toIssues(validation.errors, headerNameMap(op)));
    }
    const int64Issues = int64QueryIssues(op, ctx.querystring);
    if (int64Issues.length) throw new AppError('params_validation', undefined, int64Issues);
    const coerced = validation.coerced as { params?: Record<string, unknown>; query?: Record<string, unknown> };
    let { params: pathParams, query } = coerced;
    if (!pathParams || !query) {
      const parsed = backend.router.parseRequest({ method: ctx.method, path: ctx.path, headers: {}, query: ctx.querystring }, op);
      pathParams ??= parsed.params;
      query ??= parsed.query as Record<string, unknown>;
    }

    // Work handed on only once the request's writes are visible (e.g. delivery jobs for new rows).
    const committed: (() => Promise<void>)[] = [];
    const runCommitted = () => {
      for (const f of committed.splice(0)) {
        f().catch((e) => log.warn({ err: (e as Error).message, requestId: ctx.state.requestId }, 'after-commit work failed; it will be rescued'));
      }
    };
    type AnyHandler = ((h: HandlerContext<typeof operationId>) => Promise<{ status: number; body: unknown; headers?: Record<string, string>; secret?: boolean }>)
      & { prepare?: (h: HandlerContext<typeof operationId>) => Promise<unknown> };
    const handler = handlers[operationId] as unknown as AnyHandler;
    const handlerContext = (dbh: Knex, prepared: unknown) => ({
      operationId, version, caller, db: dbh, config, hub, chainWork, webhookWork,
      afterCommit: (f: () => Promise<void>) => void committed.push(f),
      log: log.child({ requestId: ctx.state.requestId }),
      requestId: ctx.state.requestId,
      path: pathParams,
      query,
      headers: ctx.headers as Record<string, string | undefined>,
      body,
      prepared,
    } as unknown as HandlerContext<typeof operationId>);
    // Network I/O a handler needs (a webhook URL's DNS) happens here, outside any transaction.
    const prepare = async () => (handler.prepare ? handler.prepare(handlerContext(db, undefined)) : undefined);
    const run = async (dbh: Knex, prepared: unknown) => {
      const reply = await handler(handlerContext(dbh, prepared));
      if (config.validateResponses) {
        const check = backend.validator.validateResponse(reply.body, op!, reply.status);
        if (check.errors?.length) {
          log.error({ operationId, status: reply.status, errors: check.errors }, 'response does not match the contract');
          throw new AppError('internal_error', 'The response did not match the API contract.');
        }
      }
      return { status: reply.status, text: JSON.stringify(reply.body), headers: reply.headers ?? {}, secret: Boolean(reply.secret) };
    };

    const idemKey = ctx.get('idempotency-key');
    if (ctx.method !== 'POST' || !idemKey) {
      // A long-poll holds a slot of its credential for as long as it waits (a cap per process).
      const release = query && Number(query.maxPollMs) > 0 ? longPolls.acquire(`credential:${caller.keyId}`, config.limits.longPollsPerCredential) : null;
      let r;
      try {
        r = await run(db, await prepare());
      } finally {
        release?.();
      }
      runCommitted();
      sendJson(c, r.status, r.text, r.headers);
      return;
    }
    // Gateway callers are third parties acting on any account's payments: their keys are theirs alone.
    const scope = gateway ? `caller:${caller.keyId}` : `account:${caller.accountId}`;
    const fingerprint = createHash('sha256')
      .update(canonicalJson({ op: operationId, path: ctx.path, merchant: ctx.get('merchant-id'), body: body ?? null }))
      .digest('hex');
    const seen = await idem.lookup(db, scope, idemKey, fingerprint);
    const prepared = seen ? undefined : await prepare();
    const outcome = seen ?? await db.transaction(async (trx) => {
      const claimed = await idem.claim(trx, scope, idemKey, fingerprint);
      if (claimed.kind !== 'claimed') return claimed;
      try {
        // In a savepoint: a refusal undoes the request's writes but keeps the claim, to store the refusal.
        const out = await trx.transaction((sp) => run(sp, prepared));
        // A response carrying a secret (a webhook signing secret) is kept only sealed, like every stored secret.
        await idem.complete(trx, scope, idemKey, out.status, out.secret ? sealStored(config.dataKeys, out.text) : out.text);
        return { kind: 'ran' as const, out };
      } catch (e) {
        // Anything else rolls the whole transaction back: no record is left, a retry runs the work.
        if (!(e instanceof AppError) || e.status >= 500) throw e;
        // A refusal is part of the key's history: the same request gets the same answer.
        const text = JSON.stringify(errorBody(e, ctx.state.requestId));
        await idem.complete(trx, scope, idemKey, e.status, text);
        return { kind: 'refused' as const, error: e, text };
      }
    });
    switch (outcome.kind) {
      case 'mismatch':
        throw new AppError('idempotency_conflict');
      case 'in_progress':
        throw new AppError('idempotency_in_progress', undefined, undefined, { 'Retry-After': '1' });
      case 'done':
        sendJson(c, outcome.status, openStored(config.dataKeys, outcome.body), { 'Idempotent-Replayed': 'true' });
        return;
      case 'refused':
        sendJson(c, outcome.error.status, outcome.text, outcome.error.headers);
        return;
      case 'ran':
        runCommitted();
        sendJson(c, outcome.out.status, outcome.out.text, outcome.out.headers);
    }
  });

  return app as unknown as Koa;
}

const sealStored = (keys: DataKeyring, text: string) => SEALED_BODY + seal(keys, text).toString('base64');
const openStored = (keys: DataKeyring, body: string) => (body.startsWith(SEALED_BODY) ? unseal(keys, Buffer.from(body.slice(SEALED_BODY.length), 'base64')) : body);

function notRoutable(router: Router, method: string, path: string): AppError {
  const allowed = METHODS.map((m) => m.toUpperCase()).filter((m) => router.allowed(path).includes(m));
  if (allowed.length && !allowed.includes(method.toUpperCase())) {
    return new AppError('method_not_allowed', `${method} is not allowed here; allowed: ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') });
  }
  return new AppError('not_found', `No operation at ${method} ${path.slice(0, 200)}.`);
}

const params = (op: Operation) => (op.parameters ?? []) as { name: string; in: string; required?: boolean }[];

function requiresHeader(op: Operation, name: string): boolean {
  return params(op).some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === name.toLowerCase());
}

function headerNameMap(op: Operation): Record<string, string> {
  return Object.fromEntries(params(op).filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p.name]));
}

/** Gateway operations accept App-Id/Client-Id credentials too; those are the ones open to wallet keys. */
function isGatewayOperation(op: Operation): boolean {
  return ((op.security ?? []) as Record<string, unknown>[]).some((req) => 'AppId' in req);
}
