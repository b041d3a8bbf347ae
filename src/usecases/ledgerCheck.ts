import { getAddress } from 'viem';
import type { Db } from '../db/knex';
import type { EvmChain } from '../chain/evm';
import { TOKEN_ABI } from '../chain/evm';
import { holdingsAt } from '../db/ledger';
import { parseAssetId } from '../domain/caip';

// `admin ledger check`: what the ledger says each address holds of each token, against what the chain says, at the
// block at confirmation depth. The ledger's side counts only the movements mined at or below that block (and
// reservations, which move nothing), so a payment or transfer between that block and the head is not a difference.

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

export interface CheckReport {
  chains: { chainId: string; block: string; holdings: number }[];
  differences: Difference[];
}

/** Compares every holding the ledger knows on each chain, plus what the chain's relayer keys hold of those tokens. */
export async function checkLedger(db: Db, chains: EvmChain[]): Promise<CheckReport> {
  const report: CheckReport = { chains: [], differences: [] };
  for (const chain of chains) {
    const head = await chain.call(() => chain.pub.getBlockNumber());
    const block = head - BigInt(chain.confirmations) + 1n;
    const held = await holdingsAt(db, chain.caip2, block < 0n ? 0n : block);
    const seen = new Set(held.map((h) => `${h.asset}|${getAddress(h.holder)}`));
    // A relayer key of this configuration holding a token the ledger knows on this chain, with no entries of its own.
    const tokens = [...new Set(held.map((h) => h.asset))];
    const extra = tokens.flatMap((asset) =>
      chain.held.filter((a) => !seen.has(`${asset}|${a}`)).map((holder) => ({ asset, holder, amount: 0n, owners: [] })),
    );
    const all = [...held, ...extra];
    const onChain = await Promise.all(
      all.map((h) =>
        chain.call(() =>
          chain.pub.readContract({
            address: getAddress(parseAssetId(h.asset).assetReference),
            abi: TOKEN_ABI,
            functionName: 'balanceOf',
            args: [getAddress(h.holder)],
            blockNumber: block,
          }),
        ),
      ),
    );
    report.chains.push({ chainId: chain.caip2, block: block.toString(), holdings: all.length });
    all.forEach((h, i) => {
      const got = onChain[i] as bigint;
      if (got === h.amount) return;
      report.differences.push({
        chainId: chain.caip2,
        asset: h.asset,
        holder: getAddress(h.holder),
        ledger: h.amount.toString(),
        chain: got.toString(),
        difference: (got - h.amount).toString(),
        accounts: h.owners.map((o) => ({ owner: o.owner, bucket: o.bucket, amount: o.amount.toString() })),
      });
    });
  }
  return report;
}
