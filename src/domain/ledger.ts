// The ledger's vocabulary (docs/ledger.md): every movement of value is a journal of entries that sum to zero per
// asset. An entry belongs to an owner (a partner account's id, the operator, or the world outside this service) and
// a bucket; for money this service holds, `holder` is the address the tokens sit at (a collector). Amounts are
// signed: positive adds to the owner's bucket. `funding` holds a refund's funding payment for that refund alone (the
// journals that move it name the refund). `reserve` holds the refund reserve: the share of a collected payment kept
// at its collector for the account's refunds until the payment's reserve window ends (the journals that move it name
// the payment whose reserve it is).

export type Bucket = 'available' | 'pending' | 'reserved' | 'funding' | 'reserve' | 'fees' | 'gas' | 'native' | 'external';
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
 * account's share (`available`, or `funding` for a refund's funding), its refund reserve (`reserve`, part of the
 * share) and the operator's fee, all held by the collector. */
export function collectedEntries(
  c: {
    accountId: string;
    asset: string;
    collector: string;
    amount: bigint;
    fee: bigint;
    reserve?: bigint;
    bucket?: 'available' | 'funding';
  },
  fromPending: boolean,
): Entry[] {
  const source = fromPending
    ? { owner: c.accountId, bucket: 'pending' as const, holder: c.collector }
    : { owner: WORLD, bucket: 'external' as const, holder: null };
  const reserve = c.reserve ?? 0n;
  const held = (bucket: Bucket, owner: string, amount: bigint): Entry[] =>
    amount === 0n ? [] : [{ owner, bucket, asset: c.asset, holder: c.collector, amount }];
  return [
    { ...source, asset: c.asset, amount: -c.amount },
    ...held(c.bucket ?? 'available', c.accountId, c.amount - c.fee - reserve),
    ...held('reserve', c.accountId, reserve),
    ...held('fees', OPERATOR, c.fee),
  ];
}

/** The refund reserve of an account's share of a payment: `bps` basis points of it, rounded down. */
export const reserveShare = (share: bigint, bps: number): bigint => (share > 0n && bps > 0 ? (share * BigInt(bps)) / 10_000n : 0n);

/** The native coin of an EVM chain as a CAIP-19 id (what gas is paid in). */
export const nativeAsset = (chainId: string) => `${chainId}/slip44:60`;

export interface Balance {
  asset: string;
  available: bigint;
  pending: bigint;
  reserved: bigint;
  /** The refund reserve: shares of collected payments held for refunds until their window ends. */
  reserve: bigint;
}
