import type { Db } from '../../db/knex';
import { findAssets } from '../../db/assetsRepo';
import { ChainUnavailable, type ChainWork } from '../../domain/chain';
import type { AccountId, AssetId } from '../../domain/caip';
import { AppError, ERRORS, type ErrorCode, type Issue } from '../../domain/errors';
import { destinationRefusal } from '../../domain/settlementDestination';

// Settlements that can never work are refused before they are stored (docs/api.md, "Settlements"): an asset on a
// chain this instance does not settle on (in either mode: which mode's payments a chain takes is for options and
// payment creation to say), an asset it does not serve there, and a destination
// the transfer would lose the funds to or the token would refuse (src/domain/settlementDestination.ts, and the
// token's blacklist read now). Each refusal is 422 with its code; every refused entry is an issue. Run outside any
// database transaction (a handler's `prepare`): the blacklist is read from the chain.

export interface Entry {
  a: AssetId;
  d: AccountId;
  /** The JSON pointer of the entry's fields in the request (`/settlements/0`, or `` for a destination change). */
  at: string;
}

/** The asset's token contract; null for a chain's own coin, which has none (and no issuer to blacklist anyone). */
const tokenOf = (a: AssetId): string | null => (a.assetNamespace === 'erc20' ? a.assetReference : null);

interface Refusal {
  code: ErrorCode;
  issue: Issue;
}

/** The first refusal of the entry without asking the chain, or null when only the blacklist is left to ask. */
function servedRefusal(e: Entry, chains: Set<string>, served: Set<string>, chainWork: ChainWork): Refusal | null {
  const refuse = (code: ErrorCode, field: string, message: string): Refusal => ({ code, issue: { field: `${e.at}/${field}`, message } });
  if (!chains.has(e.a.chain.id)) return refuse('chain_not_served', 'asset', `this service does not settle on ${e.a.chain.id}`);
  if (!served.has(e.a.id)) return refuse('asset_not_served', 'asset', `this service does not serve ${e.a.id} on ${e.a.chain.id}`);
  const code = destinationRefusal(e.d.address, tokenOf(e.a), chainWork.instanceAddresses(e.a.chain.id) ?? []);
  return code ? refuse(code, 'destination', ERRORS[code].message) : null;
}

/** Refuses the request (422, the first refused entry's code) unless every entry can settle. */
export async function checkDestinations(db: Db, chainWork: ChainWork, entries: Entry[]): Promise<void> {
  const chains = new Set(chainWork.settlingChains().map((c) => c.chainId));
  const served = new Set((await findAssets(db, [...new Set(entries.map((e) => e.a.id))])).keys());
  const refusals: (Refusal | null)[] = entries.map((e) => servedRefusal(e, chains, served, chainWork));
  const asked = await Promise.all(
    entries.map(async (e, i) =>
      refusals[i] || tokenOf(e.a) === null ? false : blacklisted(chainWork, e.a.chain.id, e.a.assetReference, e.d.address),
    ),
  );
  asked.forEach((listed, i) => {
    if (listed)
      refusals[i] = {
        code: 'destination_blacklisted',
        issue: { field: `${entries[i].at}/destination`, message: ERRORS.destination_blacklisted.message },
      };
  });
  const found = refusals.filter((r): r is Refusal => r !== null);
  if (!found.length) return;
  const one = found[0].issue.message;
  const message =
    found.length === 1
      ? `${one.charAt(0).toUpperCase()}${one.slice(1).replace(/([^.])$/, '$1.')}`
      : `${found.length} settlements cannot work; nothing was stored.`;
  throw new AppError(
    found[0].code,
    message,
    found.map((r) => r.issue),
  );
}

async function blacklisted(chainWork: ChainWork, chainId: string, token: string, account: string): Promise<boolean> {
  try {
    return await chainWork.blacklisted(chainId, token, account);
  } catch (e) {
    if (!(e instanceof ChainUnavailable)) throw e;
    throw new AppError(
      'service_unavailable',
      "The chain's RPC node cannot be reached to check the destination; try again shortly.",
      undefined,
      {
        'Retry-After': '2',
      },
    );
  }
}
