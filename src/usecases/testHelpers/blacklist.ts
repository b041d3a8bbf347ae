import { getAddress } from 'viem';
import { AppError } from '../../domain/errors';
import { CaipError, parseAccountId } from '../../domain/caip';
import { addressUse, blacklistedBy, claimBlacklisting, releaseBlacklisting } from '../../db/testHelpersRepo';
import { testHelperChain } from './gate';
import type { TestHelperDeps } from './helpers';

// The blacklist test helper and its undo (docs/testmode.md, "Test helpers"). A token's blacklist is one list for the
// whole chain, whoever asked: an address on it is refused for every account's payments, and what it holds is frozen.
// So a test key may name only an address that is nobody else's: never this instance's (its relayer keys sign and
// collect for every account), never one another account pays from or is paid at, never one another test scope
// blacklisted. What it blacklisted is recorded, and only it may take that back.

/** The caller's development chain for the account, and the account's address. */
function subject(deps: TestHelperDeps, account: string) {
  let parsed: ReturnType<typeof parseAccountId> | AppError;
  try {
    parsed = parseAccountId(account);
  } catch (e) {
    if (!(e instanceof CaipError)) throw e;
    parsed = new AppError('invalid_account', `account ${e.message}.`);
  }
  const dev = testHelperChain(deps.caller, deps.chainWork, parsed instanceof AppError ? parsed : { chainId: parsed.chain.id });
  const { id, address, chain } = parsed as ReturnType<typeof parseAccountId>;
  return { dev, id, address: getAddress(address), chainId: chain.id };
}

const refused = (why: string) => new AppError('forbidden', `A test helper may not blacklist ${why}.`);

/** Every token of the account's development chain refuses the account. */
export async function blacklistTestAccount(deps: TestHelperDeps, account: string) {
  const { dev, id, address, chainId } = subject(deps, account);
  const own = new Set(
    [...deps.chainWork.settlingChains('live'), ...deps.chainWork.settlingChains('test')]
      .flatMap((c) => c.relayers)
      .concat(dev.ownAddresses())
      .map((a) => getAddress(a)),
  );
  const use = own.has(address) ? 'instance' : await addressUse(deps.db, address, deps.caller.accountId);
  if (use === 'instance')
    throw refused(
      "an address of this instance (a relayer or collector key, an x402 deposit address, a token, Permit2 or the chain's deployer)",
    );
  if (use === 'account') throw refused("an address another account uses (a settlement destination, or a payment's buyer)");
  if ((await claimBlacklisting(deps.db, chainId, address, deps.caller.accountId)) !== deps.caller.accountId)
    throw refused('an address another account blacklisted');
  return { account: id, blacklisted: await dev.blacklist(address, true) };
}

/** Every token of the account's development chain accepts the account again: only one the caller blacklisted. */
export async function unblacklistTestAccount(deps: TestHelperDeps, account: string) {
  const { dev, id, address, chainId } = subject(deps, account);
  if ((await blacklistedBy(deps.db, chainId, address)) !== deps.caller.accountId)
    throw new AppError('forbidden', 'Only an account this account blacklisted with the test helper can be taken off the blacklist.');
  const unblacklisted = await dev.blacklist(address, false);
  await releaseBlacklisting(deps.db, chainId, address, deps.caller.accountId);
  return { account: id, unblacklisted };
}
