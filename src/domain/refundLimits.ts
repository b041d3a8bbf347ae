import { formatFiat } from './money';

// What a partner may make the relayer spend through refunds (docs/limits.md "Refunds"). Every refund is a token
// transfer whose gas the operator pays, so a partial refund must be worth at least that gas, and a payment takes a
// bounded number of refunds. A refund of all that is left is never refused by either rule: whatever a partner did
// before, the buyer can always get the rest of the payment back.

/**
 * Gas one refund transfer is priced at: an ERC-20 transfer to a holder whose token balance is zero writes a new
 * storage slot, the dearest case of the transfers a refund makes, with room for a token's own checks.
 */
export const REFUND_TRANSFER_GAS = 65_000n;

/**
 * The smallest partial refund, in minor units: the operator's floor, or what one refund transfer costs at
 * `weiPerGas` with one native coin (10^18 wei) worth `nativePriceMinor`, rounded up, whichever is larger.
 */
export function refundMinimumMinor(floorMinor: bigint, weiPerGas: bigint, nativePriceMinor: bigint): bigint {
  const wei = REFUND_TRANSFER_GAS * weiPerGas * nativePriceMinor;
  const gas = (wei + 10n ** 18n - 1n) / 10n ** 18n;
  return gas > floorMinor ? gas : floorMinor;
}

/** Why a refund of `minor` of a payment with `left` still to refund and `count` refunds not failed is refused; null when it is not. */
export function refundLimitRefusal(
  r: { minor: bigint; left: bigint; count: number; currency: string },
  limits: { maxPerPayment: number; minimumMinor: bigint },
): { code: 'too_many_refunds' | 'refund_below_minimum'; message: string } | null {
  if (r.minor >= r.left) return null;
  const rest = formatFiat({ currency: r.currency, minor: r.left });
  if (r.count + 1 >= limits.maxPerPayment)
    return {
      code: 'too_many_refunds',
      message: `This payment takes ${limits.maxPerPayment} refunds at most and has ${r.count}: the next must refund all that is left (${rest}).`,
    };
  if (r.minor < limits.minimumMinor) {
    const min = formatFiat({ currency: r.currency, minor: limits.minimumMinor });
    return {
      code: 'refund_below_minimum',
      message: `A partial refund must be at least ${min} (minimum ${limits.minimumMinor} in minor units), or refund all that is left (${rest}).`,
    };
  }
  return null;
}
