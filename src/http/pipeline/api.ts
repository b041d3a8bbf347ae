import type { Middleware } from 'koa';
import type { Authenticated } from '../auth';
import type { Backends, Operation } from '../backends';
import type { HandlerMap, OperationId } from '../handlerTypes';
import type { KeyCache } from '../keyCache';
import type { KeyUsage } from '../keyUsage';
import type { ApiVersion } from '../../domain/versions';
import { AfterCommit } from './afterCommit';
import { checkGatewayMode } from '../../usecases/gateway/payments';
import { authenticateCaller, authorize, isGatewayOperation, isPublicOperation, publicCaller } from './authenticate';
import { requestBody } from './body';
import { runDirect } from './direct';
import { dispatcher, DispatchDeps } from './dispatch';
import { requireHeaders } from './headers';
import { idempotentRequest, runIdempotent } from './idempotency';
import type { RequestLimits } from './limits';
import { responseCheck } from './responseCheck';
import { Routes } from './route';
import type { RequestContext, RequestState } from './state';
import { validateRequest } from './validate';
import { effectiveVersion, requestedVersion } from './version';

export interface ApiDeps extends DispatchDeps {
  backends: Backends;
  keys: KeyCache;
  /** Records when API keys were last used, at most once a minute per key (keyUsage.ts). */
  usage: KeyUsage;
  limits: RequestLimits;
}

/**
 * The API stages, in the order a request meets them (one file each in this folder):
 *   version.ts         the PAY-Version header picks the router (the account's default once the caller is known)
 *   route.ts           method + path -> the operation (404 / 405)
 *   authenticate.ts    credentials -> the caller (401; 429 per client address beyond a limit of failures),
 *                      re-routed at the account's default version; operations open to anyone (`security: []`)
 *                      take no credentials and are limited per client address; an API key's use is recorded
 *                      beside the request, at most once a minute per key (keyUsage.ts)
 *   limits.ts          per account and per credential (429)
 *   authenticate.ts    wallet keys and apps reach the gateway only (403); restricted keys (read-only, limited
 *                      to merchants) what they may call (403 key_restricted)
 *   headers.ts         Merchant-Id / Idempotency-Key where the operation requires them (400)
 *   body.ts            the JSON body (415 / 413 / 400)
 *   validate.ts        contract validation -> the operation's typed input (400 params_validation)
 *   dispatch.ts        the handler context; `prepare` and the handler, run by one of
 *     direct.ts          no Idempotency-Key: on the pool, holding a long-poll slot while it waits
 *     idempotency.ts     POST with an Idempotency-Key: replay / 409 / 422, or the handler in the transaction
 *                        holding the key's claim
 *   responseCheck.ts   the reply against the contract (development and tests)
 *   afterCommit.ts     work the handler handed on, started once its writes are committed
 * envelope.ts wraps every request (id, the one error body, log and metrics); pages.ts answers the
 * non-API routes before these stages.
 */
export function api(deps: ApiDeps): Middleware<RequestState> {
  const routes = new Routes(deps.backends);
  return async (ctx) => {
    const requested = requestedVersion(ctx.headers, ctx.path);
    if (requested.header) ctx.state.version = requested.header;
    const routed = routes.match(requested.provisional, ctx.method, ctx.path);
    ctx.state.operationId = routed.operationId; // known before auth, so a 401 is logged and counted under its operation

    const gateway = isGatewayOperation(routed);
    const open = isPublicOperation(routed);
    const caller = open ? publicCaller(ctx, deps.limits) : await authenticateCaller(deps.db, deps.keys, deps.limits, ctx, gateway);
    if ((caller.keyType === 'partner' || caller.keyType === 'wallet') && !caller.dashboardUserId) deps.usage.used(caller.keyId);
    const version = effectiveVersion(requested, caller.defaultVersion);
    ctx.state.version = version;
    const op = version === requested.provisional ? routed : routes.match(version, ctx.method, ctx.path);
    const operationId = operationIdOf(op, deps.handlers);
    ctx.state.operationId = operationId;
    await deps.limits.take(caller);
    if (!open) authorize(caller, op, ctx);
    requireHeaders(ctx, op);
    const body = await requestBody(ctx, op, deps.config.bodyLimitBytes);
    await runOperation(deps, ctx, { op, operationId, version, caller, gateway, body });
  };
}

/** What the stages before validation hand on. */
interface Identified<K extends OperationId> {
  op: Operation;
  operationId: K;
  version: ApiVersion;
  caller: Authenticated;
  /** Whether the operation first routed is a gateway one: gateway callers' idempotency keys are their own. */
  gateway: boolean;
  body: unknown;
}

async function runOperation<K extends OperationId>(deps: ApiDeps, ctx: RequestContext, req: Identified<K>): Promise<void> {
  const { config, db } = deps;
  const backend = deps.backends[req.version];
  const input = validateRequest(backend, req.op, req.operationId, ctx, req.body);
  const paymentId = req.gateway ? (input.path as { id?: string }).id : undefined;
  if (paymentId !== undefined) await checkGatewayMode(db, config.publicBaseUrl, paymentId, req.caller.mode);
  const requestId = ctx.state.requestId;
  const afterCommit = new AfterCommit(deps.log, requestId);
  const dispatch = dispatcher(
    deps,
    {
      operationId: req.operationId,
      version: req.version,
      caller: req.caller,
      requestId,
      headers: ctx.headers as Record<string, string | undefined>,
      input,
    },
    afterCommit,
    config.validateResponses ? responseCheck(backend, req.op, deps.log) : undefined,
  );
  const key = ctx.get('idempotency-key');
  if (ctx.method !== 'POST' || !key) {
    const query: Record<string, unknown> | undefined = input.query;
    const longPoll = query && Number(query.maxPollMs) > 0 ? () => deps.limits.holdLongPoll(req.caller) : null;
    await runDirect(ctx, db, dispatch, afterCommit, longPoll);
    return;
  }
  const idempotent = idempotentRequest(ctx, key, req.operationId, req.caller, req.gateway, req.body);
  await runIdempotent(ctx, db, config.dataKeys, idempotent, dispatch, afterCommit);
}

/** The router's operation as a handler's key (every operation has a handler: a missing one is a compile error). */
function operationIdOf(op: Operation, handlers: HandlerMap): OperationId {
  const id = op.operationId;
  if (!isOperationId(id, handlers)) throw new Error(`No handler for operation ${id}`);
  return id;
}

function isOperationId(id: string | undefined, handlers: HandlerMap): id is OperationId {
  return id !== undefined && Object.prototype.hasOwnProperty.call(handlers, id);
}
