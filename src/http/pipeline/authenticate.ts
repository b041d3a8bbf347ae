import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { authenticate, authenticateGateway, Authenticated } from '../auth';
import type { Operation } from '../backends';
import type { KeyCache } from '../keyCache';
import type { RequestContext } from './state';

/**
 * The caller from the request's credentials (401): an Api-Key, or for gateway operations App-Id + Client-Id
 * too (auth.ts).
 */
export function authenticateCaller(db: Db, keys: KeyCache, ctx: RequestContext, gateway: boolean): Promise<Authenticated> {
  return gateway
    ? authenticateGateway(
        db,
        { apiKey: ctx.get('api-key') || undefined, appId: ctx.get('app-id') || undefined, clientId: ctx.get('client-id') || undefined },
        keys,
      )
    : authenticate(db, ctx.get('api-key') || undefined, keys);
}

/** Wallet keys and apps reach the gateway operations only (403). */
export function authorize(caller: Authenticated, op: Operation): void {
  if (caller.keyType !== 'partner' && !isGatewayOperation(op)) {
    throw new AppError('forbidden', 'A wallet key may only call the gateway API.');
  }
}

/** Gateway operations accept App-Id/Client-Id credentials too; those are the ones open to wallet keys. */
export function isGatewayOperation(op: Operation): boolean {
  return ((op.security ?? []) as Record<string, unknown>[]).some((req) => 'AppId' in req);
}
