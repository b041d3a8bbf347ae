import type { Merchant } from '../../src/domain/merchant';

// Wire shapes of a merchant (docs/decisions.md, seed §2.1): iconUrl is absent from the create response, present elsewhere.
export const merchantCore = (m: Merchant) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  status: m.status,
  createdAt: m.createdAt.toISOString(),
});

export const merchantFull = (m: Merchant) => ({ ...merchantCore(m), iconUrl: m.iconUrl });
