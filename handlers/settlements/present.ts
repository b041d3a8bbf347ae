import type { ApiVersion } from '../../src/domain/versions';
import { livemodeOf } from '../../src/wire/livemode';

// Wire shapes of settlement destinations. A settlement is of its merchant's scope: the caller's, once the
// use case has checked the merchant is the caller's.

type Settlement = { id: string; asset: string; destination: string };

export const settlementView = (s: Settlement, version: ApiVersion, scope: string) => ({ ...s, ...livemodeOf(version, scope) });

export const settlementsView = (s: { crypto: Settlement[]; fiat: never[] }, version: ApiVersion, scope: string) => ({
  crypto: s.crypto.map((c) => settlementView(c, version, scope)),
  fiat: s.fiat,
});
