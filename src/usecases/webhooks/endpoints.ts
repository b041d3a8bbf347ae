import { isIP } from 'node:net';
import { Db, inTransaction } from '../../db/knex';
import type { WebhookConfig } from '../../config';
import { AppError } from '../../domain/errors';
import { ownedBy } from '../../domain/mode';
import { newId } from '../../domain/ids';
import { seal, unsealOrNull } from '../../domain/sealed';
import { bareHost, forbiddenAddressReason, parseWebhookUrl } from '../../domain/webhookAddress';
import { newWebhookSecret } from '../../domain/webhookSignature';
import { webhookResolver } from '../../lib/resolver';
import * as repo from '../../db/webhooks';
import { sealedAt, WEBHOOK_PREVIOUS_SECRET, WEBHOOK_SECRET } from '../../db/sealedColumnsRepo';
import {
  formatCarries,
  type WebhookEndpoint,
  type WebhookEndpointChanges,
  type WebhookEventType,
  type WebhookPayloadFormat,
} from '../../domain/webhook';

// Webhook endpoints of a partner account (2026-02-19.preview): registration with an SSRF check, changes,
// deletion, and secret rotation with an overlap during which both secrets sign.
//
// The URL check may wait on DNS, so it runs before the request's transaction (the handlers' `prepare`,
// before the Idempotency-Key is claimed): no connection or key claim is held while a partner's name servers
// take their time. Creation and update take its result, a CheckedUrl.

export interface EndpointDeps {
  db: Db;
  webhooks: WebhookConfig;
  dataKey: Buffer;
}

/** A URL that passed checkWebhookUrl. */
export type CheckedUrl = string & { readonly checked: unique symbol };

/**
 * The URL rules the schema cannot state: parseable, https, and a host that is not in a private network.
 * The URL is kept as the partner wrote it (normalising could push it past the schema's length limit).
 * A name that does not exist (yet) is accepted: every delivery checks again. A name whose DNS servers do not
 * answer within WEBHOOK_DNS_TIMEOUT_MS is refused, saying so (try again later).
 */
async function checkWebhookUrl(raw: string, cfg: WebhookConfig): Promise<CheckedUrl> {
  const { url, problem } = parseWebhookUrl(raw);
  const refuse = (message: string) => new AppError('params_validation', undefined, [{ field: '/url', message }]);
  if (!url) throw refuse(problem!);
  const host = bareHost(url.hostname).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!cfg.allowPrivateNetworks) throw refuse(`${host} is a loopback host`);
    return raw as CheckedUrl;
  }
  if (isIP(host)) {
    // The address is the partner's own input: saying what kind it is reveals nothing.
    const reason = forbiddenAddressReason(host, cfg.allowPrivateNetworks);
    if (reason) throw refuse(`must not point to a private or reserved network (${reason})`);
    return raw as CheckedUrl;
  }
  const r = await webhookResolver(cfg).resolve(host);
  if (r.kind === 'unavailable') {
    throw refuse(`the host name could not be resolved: its DNS servers did not answer in time or failed (${r.reason}); try again later`);
  }
  if (r.kind === 'addresses' && r.addresses.some((a) => forbiddenAddressReason(a.address, cfg.allowPrivateNetworks))) {
    // Never which address a name resolved to: that would map the service's network for whoever asks.
    throw refuse('must not point to a private or reserved network: the host resolves to a non-public address');
  }
  return raw as CheckedUrl;
}

/** The endpoint if it belongs to the account; 403 for another account's, 404 when missing or deleted. */
export async function endpointOfAccount(db: Db, accountId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await repo.findEndpoint(db, id);
  return ownedBy(endpoint?.deletedAt ? undefined : endpoint, accountId, () => new AppError('webhook_endpoint_not_found'));
}

/** The account's live endpoints, newest first. */
export function endpointsOfAccount(db: Db, accountId: string): Promise<WebhookEndpoint[]> {
  return repo.listEndpoints(db, accountId);
}

/** The subscribed types, each once (the contract's enum validated them on the way in). */
const eventTypes = (types: string[]) => [...new Set(types)] as WebhookEventType[];

/**
 * An endpoint in the hosted 2026-05-18 format lists only the types that format has: the others could never reach it.
 * Checked with the schema's rules, before the Idempotency-Key is claimed.
 */
function checkFormatCarries(format: WebhookPayloadFormat, types: readonly string[], field: string): void {
  const missing = types.filter((t) => !formatCarries(format, t as WebhookEventType));
  if (missing.length)
    throw new AppError('params_validation', undefined, [
      {
        field,
        message: `the ${format} payload format has no ${missing.join(', ')} events: subscribe an endpoint in the paygate format to them`,
      },
    ]);
}

export interface CreateEndpointInput {
  url: string;
  enabledEvents: string[];
  description?: string;
  payloadFormat?: WebhookPayloadFormat;
}

/**
 * What creation checks before its transaction, cheapest first: the endpoint limit (a count, so a full
 * account costs no DNS query), then the URL. The limit is checked again under a lock in createEndpoint.
 */
export async function prepareCreateEndpoint(deps: EndpointDeps, accountId: string, input: CreateEndpointInput): Promise<CheckedUrl> {
  checkFormatCarries(input.payloadFormat ?? 'paygate', input.enabledEvents, '/enabledEvents');
  if ((await repo.countEndpoints(deps.db, accountId)) >= repo.MAX_ENDPOINTS_PER_ACCOUNT) throw new AppError('webhook_endpoint_limit');
  return checkWebhookUrl(input.url, deps.webhooks);
}

export async function createEndpoint(
  deps: EndpointDeps,
  accountId: string,
  apiVersion: string,
  input: CreateEndpointInput,
  url: CheckedUrl,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  const id = newId('we');
  const endpoint = await inTransaction(deps.db, async (trx) => {
    if ((await repo.countEndpointsForUpdate(trx, accountId)) >= repo.MAX_ENDPOINTS_PER_ACCOUNT)
      throw new AppError('webhook_endpoint_limit');
    return repo.insertEndpoint(trx, {
      id,
      accountId,
      url,
      description: input.description ?? null,
      enabledEvents: eventTypes(input.enabledEvents),
      apiVersion,
      payloadFormat: input.payloadFormat ?? 'paygate',
      sealedSecret: seal(deps.dataKey, secret, sealedAt(WEBHOOK_SECRET, id)),
    });
  });
  return { endpoint, secret };
}

export interface UpdateEndpointInput {
  url?: string;
  enabledEvents?: string[];
  description?: string | null;
  payloadFormat?: WebhookPayloadFormat;
  status?: 'enabled' | 'disabled';
}

/** What an update checks before its transaction: that the endpoint is the account's, its format's types, then the new URL. */
export async function prepareUpdateEndpoint(
  deps: EndpointDeps,
  accountId: string,
  id: string,
  input: UpdateEndpointInput,
): Promise<CheckedUrl | undefined> {
  const current = await endpointOfAccount(deps.db, accountId, id);
  if (input.payloadFormat !== undefined || input.enabledEvents !== undefined)
    checkFormatCarries(
      input.payloadFormat ?? current.payloadFormat,
      input.enabledEvents ?? current.enabledEvents,
      input.enabledEvents !== undefined ? '/enabledEvents' : '/payloadFormat',
    );
  return input.url === undefined ? undefined : checkWebhookUrl(input.url, deps.webhooks);
}

export async function updateEndpoint(
  deps: EndpointDeps,
  accountId: string,
  id: string,
  input: UpdateEndpointInput,
  url: CheckedUrl | undefined,
): Promise<WebhookEndpoint> {
  const current = await endpointOfAccount(deps.db, accountId, id);
  const changes: WebhookEndpointChanges = {};
  if (input.url !== undefined) {
    if (url === undefined) throw new Error('updateEndpoint: the URL was not checked (prepareUpdateEndpoint)');
    changes.url = url;
  }
  if (input.enabledEvents !== undefined) changes.enabledEvents = eventTypes(input.enabledEvents);
  if (input.description !== undefined) changes.description = input.description;
  if (input.payloadFormat !== undefined) changes.payloadFormat = input.payloadFormat;
  if (input.status === 'enabled' && current.status === 'disabled') changes.enabled = true;
  else if (input.status === 'disabled' && current.status === 'enabled') changes.disabled = { reason: 'disabled by the partner' };
  return inTransaction(deps.db, async (trx) => {
    const endpoint = await repo.updateEndpoint(trx, id, changes);
    if (!endpoint) throw new AppError('webhook_endpoint_not_found');
    // What is still queued for a disabled endpoint is not sent.
    if (changes.disabled) await repo.cancelPendingDeliveries(trx, id);
    return endpoint;
  });
}

/** Idempotent: deleting a deleted endpoint of the account answers the same. */
export async function deleteEndpoint(db: Db, accountId: string, id: string): Promise<void> {
  const endpoint = await repo.findEndpoint(db, id);
  if (ownedBy(endpoint, accountId, () => new AppError('webhook_endpoint_not_found')).deletedAt) return;
  await inTransaction(db, async (trx) => {
    await repo.markEndpointDeleted(trx, id);
    await repo.cancelPendingDeliveries(trx, id);
  });
}

export async function rotateSecret(
  deps: EndpointDeps,
  accountId: string,
  id: string,
  overlapSeconds: number,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  await endpointOfAccount(deps.db, accountId, id);
  const secret = newWebhookSecret();
  // The secret being replaced keeps signing during the overlap; one that no longer opens here is dropped.
  const asPrevious = (current: Buffer) => {
    const text = unsealOrNull(deps.dataKey, current, sealedAt(WEBHOOK_SECRET, id));
    return text === null ? null : seal(deps.dataKey, text, sealedAt(WEBHOOK_PREVIOUS_SECRET, id));
  };
  const sealed = seal(deps.dataKey, secret, sealedAt(WEBHOOK_SECRET, id));
  const endpoint = await repo.rotateEndpointSecret(deps.db, id, sealed, asPrevious, overlapSeconds);
  if (!endpoint) throw new AppError('webhook_endpoint_not_found');
  return { endpoint, secret };
}
