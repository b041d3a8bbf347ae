import { setTimeout as sleep } from 'node:timers/promises';
import { getAddress } from 'viem';
import type { Db } from '../../db/knex';
import type { EvmChain } from '../../chain/evm';
import { TOKEN_ABI } from '../../chain/evm';
import { nonceCountAt } from '../../chain/proofs';
import { holdingsAt, negativeBalances } from '../../db/ledger';
import { lowestOpenNonces } from '../../db/relayer';
import { isNativeAsset, tokenAddressOf } from '../../domain/caip';

// `admin ledger check`: what the ledger says each address holds of each token, against what the chain says, at the
// block at confirmation depth. The ledger's side counts only the movements mined at or below that block (and
// reservations, which move nothing), so a payment or transfer between that block and the head is not a difference.
// Nor is a relayer transaction mined at or below that block that the service has not recorded yet (its monitor a pass
// behind, an RPC node that does not show the receipt yet): the nonce at that block of each compared address that has
// a transaction not final in the database says whether the lowest of them was mined by then, and the check waits for
// the service to record it (the ledger is complete at the block once none is left), up to `waitMs`; what is still
// unrecorded then is reported.
//
// The sum per token and address alone cannot see one account's money spent as another's: the tokens that left are
// gone from the address's total either way (a refund reserved from funding in another asset than its own left the
// account's bucket of its token below zero, the address's total right). So every owner's bucket of every token held
// is also checked on its own: none may be below zero (`negative`).
//
// The chain's own coin (collector mode, docs/native.md) cannot be compared exactly: a key's ETH is also the operator's
// funding for gas, which the ledger does not record (only the gas spent, as `native` → `gas` at the key). So for each
// address the ledger says holds coin for others or as fees, its eth_getBalance at the block must be at least that
// (`atLeast`): less means gas, or something else, spent money that was not the operator's.

export interface Difference {
  chainId: string;
  asset: string;
  holder: string;
  ledger: string;
  chain: string;
  /** Chain minus ledger: positive when the address holds more than the ledger accounts for. */
  difference: string;
  /** Whose money the ledger says it is: per owner (a partner account, `operator`) and bucket. */
  accounts: { owner: string; bucket: string; amount: string }[];
}

/** A sender's transaction the database holds as not final whose nonce the chain shows used at the checked block. */
export interface Unrecorded {
  sender: string;
  nonce: string;
}

/** An owner's bucket of a token at an address (a collector) that the ledger says is below zero. */
export interface Negative {
  chainId: string;
  asset: string;
  holder: string;
  owner: string;
  bucket: string;
  amount: string;
}

export interface CheckReport {
  /** `unrecorded`: non-empty when the ledger at `block` may lack those transactions' movements (not conclusive). */
  chains: { chainId: string; block: string; holdings: number; unrecorded: Unrecorded[] }[];
  differences: Difference[];
  negative: Negative[];
  /** Every holding compared, equal or not: what the ledger and the chain say the address holds (smallest units). */
  compared: { chainId: string; asset: string; holder: string; ledger: string; chain: string; atLeast?: true }[];
}

const POLL_MS = 250;

/** Compares every holding the ledger knows on each chain, plus what the chain's relayer keys hold of those tokens. */
export async function checkLedger(db: Db, chains: EvmChain[], { waitMs }: { waitMs: number }): Promise<CheckReport> {
  const report: CheckReport = { chains: [], differences: [], negative: [], compared: [] };
  for (const chain of chains) {
    const head = await chain.call(() => chain.pub.getBlockNumber({ cacheTime: 0 }));
    const depth = head - BigInt(chain.confirmations) + 1n;
    const block = depth < 0n ? 0n : depth;
    const until = Date.now() + waitMs;
    let all = await compared(db, chain, block);
    let unrecorded: Unrecorded[];
    for (;;) {
      const holders = new Set(all.map((h) => getAddress(h.holder)));
      unrecorded = await unrecordedAt(db, chain, block, holders);
      if (unrecorded.length && Date.now() < until) {
        await sleep(Math.min(POLL_MS, until - Date.now()));
        continue;
      }
      // Read again after: what the service recorded meanwhile is mined at or below the block (then read) or above it.
      // A holder new since the last read (its first entry recorded meanwhile) has its senders asked once more.
      const again = await compared(db, chain, block);
      const grew = again.some((h) => !holders.has(getAddress(h.holder)));
      all = again;
      if (!grew || Date.now() >= until) break;
    }
    const onChain = await Promise.all(
      all.map((h) =>
        chain.call(() =>
          isNativeAsset(h.asset)
            ? chain.pub.getBalance({ address: getAddress(h.holder), blockNumber: block })
            : chain.pub.readContract({
                address: getAddress(tokenAddressOf(h.asset)),
                abi: TOKEN_ABI,
                functionName: 'balanceOf',
                args: [getAddress(h.holder)],
                blockNumber: block,
              }),
        ),
      ),
    );
    report.chains.push({ chainId: chain.caip2, block: block.toString(), holdings: all.length, unrecorded });
    all.forEach((h, i) => {
      const got = onChain[i] as bigint;
      const holder = getAddress(h.holder);
      const atLeast = isNativeAsset(h.asset);
      const c = { chainId: chain.caip2, asset: h.asset, holder, ledger: h.amount.toString(), chain: got.toString() };
      report.compared.push(atLeast ? { ...c, atLeast: true } : c);
      if (got === h.amount || (atLeast && got > h.amount)) return;
      report.differences.push({
        chainId: chain.caip2,
        asset: h.asset,
        holder,
        ledger: h.amount.toString(),
        chain: got.toString(),
        difference: (got - h.amount).toString(),
        accounts: h.owners.map((o) => ({ owner: o.owner, bucket: o.bucket, amount: o.amount.toString() })),
      });
    });
    for (const n of await negativeBalances(db, chain.caip2))
      report.negative.push({ chainId: chain.caip2, ...n, holder: getAddress(n.holder), amount: n.amount.toString() });
  }
  return report;
}

/**
 * The holdings compared on `chain`: the ledger's at `block`, this configuration's relayer keys for its tokens, and the
 * chain's own coin at the addresses the ledger says hold some for others.
 */
async function compared(db: Db, chain: EvmChain, block: bigint) {
  const [held, native] = await Promise.all([holdingsAt(db, chain.caip2, block), holdingsAt(db, chain.caip2, block, true)]);
  const seen = new Set(held.map((h) => `${h.asset}|${getAddress(h.holder)}`));
  // A relayer key of this configuration holding a token the ledger knows on this chain, with no entries of its own.
  const tokens = [...new Set(held.map((h) => h.asset))];
  const extra = tokens.flatMap((asset) =>
    chain.held.filter((a) => !seen.has(`${asset}|${a}`)).map((holder) => ({ asset, holder, amount: 0n, owners: [] })),
  );
  return [...held, ...extra, ...native];
}

/**
 * Senders among `holders` whose lowest open transaction's nonce was used at `block`: mined (whichever took it), not
 * recorded. Every token movement of the relayer's is from or to its sender (a collector), so another sender's
 * unrecorded transaction moves nothing the check compares (a key of a configuration no longer running, say).
 */
async function unrecordedAt(db: Db, chain: EvmChain, block: bigint, holders: Set<string>): Promise<Unrecorded[]> {
  const open = (await lowestOpenNonces(db, chain.caip2)).filter((o) => holders.has(getAddress(o.sender)));
  const used = await Promise.all(open.map(async (o) => (await nonceCountAt(chain, getAddress(o.sender), block)) > o.nonce));
  return open.filter((_, i) => used[i]).map((o) => ({ sender: getAddress(o.sender), nonce: o.nonce.toString() }));
}
