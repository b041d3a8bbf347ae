import { createPublicClient, getAddress, http, type Address } from 'viem';
import type { Knex } from 'knex';
import { devnetChain } from '../../src/chain/devnet';
import { TOKEN_ABI } from '../../src/chain/evm';
import { USDC } from './stack';

// The books at the soak's end (docs/ledger.md), from the ledger's tables, the payments' and refunds' own columns,
// and the chains: every journal balances; per account and asset, collected = settled + refunded + fees + still
// held; each collector holds on each chain what the ledger's owners hold there of its USDC, summed (`admin ledger
// check` once all is final); and no owner's bucket of a token at a collector is below zero, which the sum alone
// cannot see (a refund reserved from funding in another asset spent other accounts' tokens, the totals still right).

type Row = Record<string, any>;

export async function checkLedger(db: Knex, chains: { chainId: number; rpcUrl: string }[], relayers: Address[]): Promise<string[]> {
  const violations: string[] = [];
  const bad = (s: string) => violations.push(s);
  const { rows: unbalanced } = await db.raw(
    `SELECT journal_id, asset, sum(amount) AS total FROM ledger_entries GROUP BY journal_id, asset HAVING sum(amount) <> 0`,
  );
  for (const u of unbalanced as Row[]) bad(`ledger journal ${u.journal_id} sums to ${u.total} of ${u.asset}`);

  // Per account and asset, from the payments and refunds themselves against the ledger's balance and fees.
  const { rows: books } = await db.raw(
    `WITH collected AS (
       SELECT p.account_id, p.token_asset AS asset, sum(p.token_amount) AS collected,
         coalesce(sum(p.settlement_amount) FILTER (WHERE p.settled_at IS NOT NULL), 0) AS settled
       FROM payments p JOIN ledger_journals j ON j.ref = 'collected:' || p.id GROUP BY 1, 2),
     -- What reserve releases sent beyond a payment's own settlement (docs/ledger.md "Refund reserve").
     released AS (SELECT r.account_id, r.asset, coalesce(-sum(e.amount), 0) AS released
       FROM refund_reserves r JOIN payments p ON p.id = r.payment_id JOIN chain_transactions c ON c.id = r.release_tx_id
         JOIN ledger_journals j ON j.ref = 'settle_reserved:' || r.release_tx_id || ':' || r.payment_id
         JOIN ledger_entries e ON e.journal_id = j.id AND e.bucket = 'reserve'
       WHERE c.status = 'confirmed' AND p.settlement_tx_hash IS DISTINCT FROM c.tx_hash GROUP BY 1, 2),
     refunded AS (SELECT account_id, token_asset AS asset, sum(token_amount) AS refunded FROM refunds WHERE status = 'succeeded' GROUP BY 1, 2),
     fees AS (SELECT j.account_id, e.asset, sum(e.amount) AS fees FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
       WHERE j.kind = 'collected' AND e.owner = 'operator' AND e.bucket = 'fees' GROUP BY 1, 2),
     held AS (SELECT owner AS account_id, asset, sum(amount) AS held FROM ledger_entries
       WHERE bucket IN ('available', 'pending', 'reserved', 'funding', 'reserve') GROUP BY 1, 2)
     SELECT c.account_id, c.asset, c.collected, c.settled + coalesce(x.released, 0) AS settled, coalesce(r.refunded, 0) AS refunded, coalesce(f.fees, 0) AS fees,
       coalesce(h.held, 0) AS held
     FROM collected c LEFT JOIN refunded r USING (account_id, asset) LEFT JOIN fees f USING (account_id, asset)
       LEFT JOIN held h USING (account_id, asset) LEFT JOIN released x USING (account_id, asset)`,
  );
  for (const b of books as Row[]) {
    const [collected, settled, refunded, fees, held] = [b.collected, b.settled, b.refunded, b.fees, b.held].map((x) => BigInt(x));
    if (collected !== settled + refunded + fees + held)
      bad(`${b.account_id} ${b.asset}: collected ${collected} != settled ${settled} + refunded ${refunded} + fees ${fees} + held ${held}`);
  }

  // Each collector holds on each chain what the ledger says (everything is final by now: every block counts).
  for (const c of chains) {
    const asset = `eip155:${c.chainId}/erc20:${getAddress(USDC)}`;
    const chain = createPublicClient({ chain: devnetChain(c.rpcUrl, c.chainId), transport: http(c.rpcUrl) });
    const { rows: holdings } = await db.raw(
      `SELECT holder, sum(amount) AS amount FROM ledger_entries WHERE asset = ? AND holder IS NOT NULL GROUP BY holder`,
      [asset],
    );
    const ledgerSays = new Map((holdings as Row[]).map((h) => [getAddress(h.holder), BigInt(h.amount)]));
    for (const r of relayers) {
      const balance = await chain.readContract({ address: USDC, abi: TOKEN_ABI, functionName: 'balanceOf', args: [r] });
      if (balance !== (ledgerSays.get(r) ?? 0n))
        bad(`collector ${r} holds ${balance} of ${asset}, the ledger says ${ledgerSays.get(r) ?? 0n}`);
    }
  }
  // Per owner, bucket, token and collector: never below zero (the world's entries have no holder; gas is native).
  const { rows: negative } = await db.raw(
    `SELECT owner, bucket, asset, holder, sum(amount) AS amount FROM ledger_entries WHERE holder IS NOT NULL AND asset LIKE '%/erc20:%'
     GROUP BY owner, bucket, asset, holder HAVING sum(amount) < 0`,
  );
  for (const n of negative as Row[]) bad(`${n.owner} ${n.bucket} of ${n.asset} at collector ${n.holder} is ${n.amount}`);
  return violations;
}
