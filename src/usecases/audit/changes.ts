import { recordAudit, type AuditActor } from '../../db/auditRepo';
import type { Db } from '../../db/knex';

// The account's audit log of changes made through the partner API, by a key or a dashboard user (docs/keys.md): one
// event per successful request of the operations below, written by the request pipeline where the handler ran (in
// the request's transaction under an Idempotency-Key, so the change and its event commit together; a replayed
// answer writes none). The operations of API keys write their own events (src/db/apiKeysRepo.ts: the operator's
// CLI makes and revokes keys too). Payment creation and the payment flow are not account changes: their history
// is the payment's events.

const AUDITED: Record<string, string> = {
  createMerchant: 'merchant.created',
  updateMerchant: 'merchant.updated',
  deleteMerchant: 'merchant.deleted',
  createCryptoSettlements: 'settlement.created',
  updateCryptoSettlement: 'settlement.updated',
  deleteCryptoSettlement: 'settlement.deleted',
  cancelPayment: 'payment.canceled',
  createRefund: 'refund.created',
  createWebhookEndpoint: 'webhook_endpoint.created',
  updateWebhookEndpoint: 'webhook_endpoint.updated',
  deleteWebhookEndpoint: 'webhook_endpoint.deleted',
  rotateWebhookEndpointSecret: 'webhook_endpoint.secret_rotated',
  redeliverEvent: 'event.redelivered',
  updateAccountSettings: 'account_settings.updated',
};

/** The audit action of an operation, or null when its requests are not audited. */
export const auditedAction = (operationId: string): string | null => AUDITED[operationId] ?? null;

/**
 * What the event names: the object made (the id in the answer's body or in its one top-level object), else the
 * object of the path (its last parameter), else the account.
 */
function targetOf(path: Record<string, unknown>, body: unknown, accountId: string): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (typeof b.id === 'string') return b.id;
    for (const v of Object.values(b))
      if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { id?: unknown }).id === 'string')
        return (v as { id: string }).id;
  }
  const ids = Object.values(path).filter((v): v is string => typeof v === 'string');
  return ids.length ? ids[ids.length - 1] : accountId;
}

/** Records a successful request of an audited operation (see AUDITED) in the caller's account scope. */
export async function recordChange(
  db: Db,
  change: { action: string; scope: string; actor: AuditActor; path: Record<string, unknown>; body: unknown },
): Promise<void> {
  await recordAudit(db, change.scope, change.actor, change.action, targetOf(change.path, change.body, change.scope));
}
