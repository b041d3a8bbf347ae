import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { STABLE_VERSION } from '../../domain/versions';
import { authenticate, authenticateGateway, Authenticated } from '../auth';
import type { Operation } from '../backends';
import { clientAddress } from '../clientAddress';
import type { KeyCache } from '../keyCache';
import type { RequestLimits } from './limits';
import type { RequestContext } from './state';

/**
 * The caller from the request's credentials (401): an Api-Key, or for gateway operations App-Id + Client-Id
 * too (auth.ts). Failures are limited per client address (issue 28, finding 12): each counts, and beyond the
 * limit the address gets 429 rate_limited instead, without the query a credential new to this process costs
 * (a key it verified already still works from there).
 */
export async function authenticateCaller(
  db: Db,
  keys: KeyCache,
  limits: RequestLimits,
  ctx: RequestContext,
  gateway: boolean,
): Promise<Authenticated> {
  const address = clientAddress(ctx, limits.trustedProxyHops);
  const beforeLookup = () => limits.checkAuthFailures(address);
  try {
    return gateway
      ? await authenticateGateway(
          db,
          { apiKey: ctx.get('api-key') || undefined, appId: ctx.get('app-id') || undefined, clientId: ctx.get('client-id') || undefined },
          keys,
          beforeLookup,
        )
      : await authenticate(db, ctx.get('api-key') || undefined, keys, beforeLookup);
  } catch (e) {
    if (e instanceof AppError && e.status === 401) await limits.takeAuthFailure(address);
    throw e;
  }
}

/** Wallet keys and apps reach the gateway operations only (403); read-only keys reach GET operations only (403). */
export function authorize(caller: Authenticated, op: Operation): void {
  if (caller.keyType !== 'partner' && !isGatewayOperation(op)) {
    throw new AppError('forbidden', 'A wallet key may only call the gateway API.');
  }
  if (caller.readOnly && op.method.toLowerCase() !== 'get') {
    throw new AppError('key_restricted', `This key is read-only: ${op.method.toUpperCase()} ${op.path} changes something.`);
  }
}

/** Gateway operations accept App-Id/Client-Id credentials too; those are the ones open to wallet keys. */
export function isGatewayOperation(op: Operation): boolean {
  return ((op.security ?? []) as Record<string, unknown>[]).some((req) => 'AppId' in req);
}

/** Operations the contract opens to anyone (`security: []`, as GET /x402/supported). */
export function isPublicOperation(op: Operation): boolean {
  return Array.isArray(op.security) && op.security.length === 0;
}

/** The caller of a public operation: no account; its limits are its client address's (limits.ts). */
export function publicCaller(ctx: RequestContext, limits: RequestLimits): Authenticated {
  const address = clientAddress(ctx, limits.trustedProxyHops);
  return { accountId: `public:${address}`, mode: 'live', keyId: `public:${address}`, keyType: 'public', defaultVersion: STABLE_VERSION };
}
