import type { ApiKeyRow, AuditEvent } from '../../src/usecases/keys/apiKeys';
import type { Caller } from '../../src/http/handlerTypes';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An API key as the preview answers it (spec/components/schemas/ApiKey.yaml). */
export const apiKeyBody = (k: ApiKeyRow, caller: Caller) => ({
  id: k.id,
  name: k.name,
  type: k.type,
  readOnly: k.readOnly,
  merchantIds: k.merchantIds,
  expiresAt: iso(k.expiresAt),
  lastUsedAt: iso(k.lastUsedAt),
  createdAt: k.createdAt.toISOString(),
  revokedAt: iso(k.revokedAt),
  livemode: caller.mode === 'live',
});

export const auditEventBody = (e: AuditEvent) => ({ ...e, createdAt: e.createdAt.toISOString() });
