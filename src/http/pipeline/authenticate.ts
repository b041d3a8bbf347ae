import { params as pathParamsOf } from 'bath-es5';
import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { STABLE_VERSION } from '../../domain/versions';
import { authenticate, authenticateGateway, Authenticated } from '../auth';
import type { Operation } from '../backends';
import { clientAddress } from '../clientAddress';
import type { KeyCache } from '../keyCache';
import type { RequestLimits } from './limits';
import type { RequestContext } from './state';
import { trimmedPath } from './validate';

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
  const session = ctx.state.dashboardCaller; // /dashboard/api: the session is the credential (src/http/dashboard/)
  if (session) {
    if (gateway) throw new AppError('forbidden', 'The dashboard does not call the gateway API.');
    return session;
  }
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

/**
 * Wallet keys and apps reach the gateway operations only (403 forbidden). Restricted keys (403 key_restricted, before
 * anything runs; docs/keys.md) reach the gateway's operations as any key does (the payment id is the capability
 * there, and the buyer's signature what moves money; those operations document no 403). Elsewhere a read-only key
 * reaches GET operations only; a key limited to merchants reaches the operations that name one of its merchants, and
 * none that names another. An operation naming no merchant acts on the whole account (creating or
 * listing merchants, lists across merchants, keys, webhooks, events, balance, settings, x402, test helpers), so it
 * is refused to such a key, as is any operation added later that names none. Both restrictions apply together.
 */
export function authorize(caller: Authenticated, op: Operation, ctx: RequestContext): void {
  if (caller.keyType !== 'partner' && !isGatewayOperation(op)) {
    throw new AppError('forbidden', 'A wallet key may only call the gateway API.');
  }
  if (isGatewayOperation(op)) return;
  if (caller.readOnly && op.method.toLowerCase() !== 'get') {
    throw new AppError('key_restricted', `This key is read-only: ${op.method.toUpperCase()} ${op.path} changes something.`);
  }
  if (caller.merchantIds) {
    const named = merchantsNamed(op, ctx);
    if (named === null) {
      throw new AppError('key_restricted', `This key is limited to merchants: ${op.method.toUpperCase()} ${op.path} acts on the account.`);
    }
    if (!named.every((id) => caller.merchantIds!.includes(id))) {
      throw new AppError('key_restricted', 'This key is limited to merchants, and this request names another one.');
    }
  }
}

/** Where an operation names the merchant it acts for: the Merchant-Id header, path parameters (`{merchantId}`). */
interface MerchantParameters {
  header: boolean;
  inPath: string[];
  pathParams: (path: string) => Record<string, string> | null;
}

const MERCHANT_PATH_PARAMETERS = new Set(['merchantId', 'merchant_id']);
const merchantParameters = new WeakMap<Operation, MerchantParameters>();

function merchantParametersOf(op: Operation): MerchantParameters {
  let m = merchantParameters.get(op);
  if (!m) {
    const params = (op.parameters ?? []) as { name: string; in: string }[];
    m = {
      header: params.some((p) => p.in === 'header' && p.name.toLowerCase() === 'merchant-id'),
      inPath: params.filter((p) => p.in === 'path' && MERCHANT_PATH_PARAMETERS.has(p.name)).map((p) => p.name),
      pathParams: pathParamsOf(op.path),
    };
    merchantParameters.set(op, m);
  }
  return m;
}

/**
 * The merchants a request names, as its handler will read them (the Merchant-Id header; path parameters decoded as
 * validation decodes them, validate.ts); null when its operation names none. A path that cannot be decoded names
 * `''`, a merchant no key is limited to.
 */
function merchantsNamed(op: Operation, ctx: RequestContext): string[] | null {
  const m = merchantParametersOf(op);
  if (!m.header && !m.inPath.length) return null;
  const header = m.header ? ctx.get('merchant-id') : '';
  let path: Record<string, string> | null = null;
  try {
    if (m.inPath.length) path = m.pathParams(trimmedPath(ctx.path));
  } catch {
    path = null; // a malformed escape
  }
  return [...(header ? [header] : []), ...m.inPath.map((name) => path?.[name] ?? '')];
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
