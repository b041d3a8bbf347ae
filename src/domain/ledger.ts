// The ledger's vocabulary (docs/ledger.md): every movement of value is a journal of entries that sum to zero per
// asset. An entry belongs to an owner (a partner account's id, the operator, or the world outside this service) and
// a bucket; for money this service holds, `holder` is the address the tokens sit at (a collector). Amounts are
// signed: positive adds to the owner's bucket. `funding` holds a refund's funding payment for that refund alone (the
// journals that move it name the refund).

export type Bucket = 'available' | 'pending' | 'reserved' | 'funding' | 'fees' | 'gas' | 'native' | 'external';
export const OPERATOR = 'operator';
export const WORLD = 'world';

export interface Entry {
  owner: string;
  bucket: Bucket;
  asset: string;
  holder: string | null;
  amount: bigint;
}

export type JournalKind =
  | 'collect_pending'
  | 'collect_unpending'
  | 'collected'
  | 'settle_reserved'
  | 'settle_released'
  | 'settled'
  | 'refund_reserved'
  | 'refund_released'
  | 'refunded'
  | 'funding_released'
  | 'gas';

export interface Journal {
  /** Unique: the same movement is recorded once, however often the step that records it runs. */
  ref: string;
  kind: JournalKind;
  accountId?: string | null;
  paymentId?: string | null;
  /** The refund whose funding the journal credits, spends or releases. */
  refundId?: string | null;
  chainTxId?: string | null;
  chainId?: string | null;
  txHash?: string | null;
  /** The block the movement happened in on chain; null for what moves nothing on chain (reservations). */
  blockNumber?: bigint | null;
  entries: Entry[];
}

/** The assets whose entries do not sum to zero (empty: the journal balances). */
export function unbalancedAssets(entries: Entry[]): string[] {
  const sums = new Map<string, bigint>();
  for (const e of entries) sums.set(e.asset, (sums.get(e.asset) ?? 0n) + e.amount);
  return [...sums].filter(([, s]) => s !== 0n).map(([a]) => a);
}

/** `amount` of `asset` from one place to another (both entries, or none when the amount is zero). */
export function move(asset: string, amount: bigint, from: Omit<Entry, 'asset' | 'amount'>, to: Omit<Entry, 'asset' | 'amount'>): Entry[] {
  if (amount === 0n) return [];
  return [
    { ...from, asset, amount: -amount },
    { ...to, asset, amount },
  ];
}

/** The entries of a collected payment, final: the buyer's tokens (from the world, or from pending) split into the
 * account's share (`available`, or `funding` for a refund's funding) and the operator's fee, both held by the collector. */
export function collectedEntries(
  c: { accountId: string; asset: string; collector: string; amount: bigint; fee: bigint; bucket?: 'available' | 'funding' },
  fromPending: boolean,
): Entry[] {
  const source = fromPending
    ? { owner: c.accountId, bucket: 'pending' as const, holder: c.collector }
    : { owner: WORLD, bucket: 'external' as const, holder: null };
  return [
    { ...source, asset: c.asset, amount: -c.amount },
    ...(c.amount - c.fee === 0n
      ? []
      : [{ owner: c.accountId, bucket: c.bucket ?? 'available', asset: c.asset, holder: c.collector, amount: c.amount - c.fee }]),
    ...(c.fee === 0n ? [] : [{ owner: OPERATOR, bucket: 'fees' as const, asset: c.asset, holder: c.collector, amount: c.fee }]),
  ];
}

/** The native coin of an EVM chain as a CAIP-19 id (what gas is paid in). */
export const nativeAsset = (chainId: string) => `${chainId}/slip44:60`;

export interface Balance {
  asset: string;
  available: bigint;
  pending: bigint;
  reserved: bigint;
}
