import { isLivemode } from '../domain/mode';
import type { ApiVersion } from '../domain/versions';

// `livemode` on the objects both versions share: merchants, settlements, payments, gateway payments
// (docs/testmode.md "Mode on the wire"). 2026-02-19.preview carries it; 2026-02-18's wire does not change.
// The preview's own objects (webhook endpoints, events, balances) carry it at every version they exist in; a refund,
// shown at 2026-02-18 too (the refund answer, payment details), carries it where the version's objects do.
const CARRIES_LIVEMODE: Record<ApiVersion, boolean> = { '2026-02-18': false, '2026-02-19.preview': true };

/**
 * What to spread into an object of `scope` (the account id it is stored under): `{ livemode }` at a version whose
 * objects carry it, nothing at one whose objects do not. Typed as present because handlers are typed against
 * the preview's document, the superset.
 */
export const livemodeOf = (version: ApiVersion, scope: string) =>
  (CARRIES_LIVEMODE[version] ? { livemode: isLivemode(scope) } : {}) as { livemode: boolean };
