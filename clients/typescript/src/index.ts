// @paygate/client: a thin typed client. openapi-fetch does the HTTP; the types are the ones `make generate`
// derives from the spec (generated/<version>/types.ts), so every path, parameter, body and response is
// checked at compile time against the API version the client is pinned to, and nothing here can drift
// from the spec. For a class-per-tag SDK see generated/<version>/sdk/typescript (make sdks, make sdk-packages).
import crypto from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { components as StableComponents, paths as StablePaths } from '../../../generated/2026-02-18/types';
import type { paths as PreviewPaths } from '../../../generated/2026-02-19.preview/types';

export const STABLE_VERSION = '2026-02-18';
export const PREVIEW_VERSION = '2026-02-19.preview';
export type PaygateVersion = typeof STABLE_VERSION | typeof PREVIEW_VERSION;

/** The paths (and so the request and response types) of an API version. */
export type PathsOf<V extends PaygateVersion> = V extends typeof PREVIEW_VERSION ? PreviewPaths : StablePaths;
export type PaygateClient<V extends PaygateVersion = typeof STABLE_VERSION> = Client<PathsOf<V>>;
/** Schemas of the stable version, e.g. `Schemas['PaymentDetails']`. */
export type Schemas = StableComponents['schemas'];
export type { StablePaths, PreviewPaths };

export const SDK_NAME = '@paygate/client';
export const SDK_VERSION = '0.1.0';

export interface PaygateClientOptions<V extends PaygateVersion> {
  /** Where the service runs, e.g. `http://localhost:8080` (no `/v1`: paths carry it). */
  baseUrl: string;
  /** Partner key (merchant and gateway API) or wallet key (gateway API only). */
  apiKey: string;
  /**
   * Sent as `PAY-Version` on every request. Default: the stable version. Pinning it (rather than relying
   * on the account's default) keeps a client on the shapes it was compiled against.
   */
  version?: V;
  /** Extra headers on every request (e.g. `Merchant-Id` for a client that acts for one merchant). */
  headers?: Record<string, string>;
  /** A custom fetch (tests, proxies); default: globalThis.fetch. */
  fetch?: (input: Request) => Promise<Response>;
}

/**
 * An openapi-fetch client with `Api-Key`, `PAY-Version` and the SDK identification headers set.
 * Calls return `{ data, error, response }`: `error` is the spec's `Error` body on 4xx/5xx.
 *
 *   const paygate = createPaygateClient({ baseUrl, apiKey });
 *   const { data, error } = await paygate.POST('/v1/merchants', {
 *     params: { header: { 'Idempotency-Key': idempotencyKey('merchant', shopId) } },
 *     body: { merchantName: 'Coffee Shop', merchantEmail: 'owner@coffee.example.com' },
 *   });
 */
export function createPaygateClient<V extends PaygateVersion = typeof STABLE_VERSION>(options: PaygateClientOptions<V>): PaygateClient<V> {
  const version = options.version ?? STABLE_VERSION;
  if (version !== STABLE_VERSION && version !== PREVIEW_VERSION) throw new Error(`unknown paygate API version ${version}`);
  return createClient<PathsOf<V>>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    fetch: options.fetch,
    headers: {
      'Api-Key': options.apiKey,
      'PAY-Version': version,
      'Sdk-Name': SDK_NAME,
      'Sdk-Version': SDK_VERSION,
      'Sdk-Platform': `node-${process.versions.node}`,
      ...options.headers,
    },
  });
}

/**
 * An `Idempotency-Key` (1 to 255 characters). With parts, the key is derived from them, so a retry of the
 * same business operation (after a timeout or a crash) sends the same key and is answered from the stored
 * response instead of acting twice: `idempotencyKey('payment', orderId)`. Without parts it is a random
 * UUID: keep it and reuse it for the retries of that one request.
 */
export function idempotencyKey(...parts: Array<string | number>): string {
  if (parts.length === 0) return crypto.randomUUID();
  const key = parts.map(String).join(':');
  if (key.length < 1 || key.length > 255) throw new RangeError(`an Idempotency-Key has 1 to 255 characters, this one ${key.length}`);
  return key;
}
export * from './webhooks';
export * from './actions';
