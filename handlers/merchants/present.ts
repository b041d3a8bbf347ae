import type { Merchant } from '../../src/domain/merchant';
import type { ApiVersion } from '../../src/domain/versions';
import { livemodeOf } from '../../src/wire/livemode';

// Wire shapes of a merchant (docs/decisions.md, seed §2.1): iconUrl is absent from the create response, present elsewhere.
export const merchantCore = (m: Merchant, version: ApiVersion) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  status: m.status,
  createdAt: m.createdAt.toISOString(),
  ...livemodeOf(version, m.accountId),
});

export const merchantFull = (m: Merchant, version: ApiVersion) => ({ ...merchantCore(m, version), iconUrl: m.iconUrl });
