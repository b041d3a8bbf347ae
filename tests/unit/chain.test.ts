import { parseSignature, serializeSignature, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { refusalOf } from '../../src/domain/chain';
import {
  buildTransferAuthorization,
  canonicalSignature,
  randomNonce,
  serialiseTypedData,
  verifyTransferAuthorization,
} from '../../src/domain/eip3009';
import { cancellationFees, networkAsksMore, replacementFees } from '../../src/domain/fees';
import { feeInTokenUnits } from '../../src/domain/money';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const buyer = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const td = serialiseTypedData(
  buildTransferAuthorization({
    kind: 'ReceiveWithAuthorization',
    domainName: 'USD Coin',
    domainVersion: '2',
    chainId: 31337,
    token: '0xb19b36b1456E65E3A6D514D3F715f204BD59f431',
    from: buyer.address,
    to: '0x52908400098527886E0F7030069857D2E4169EE7',
    value: 1_000_000n,
    validAfter: 0,
    validBefore: 1_900_000_000,
    nonce: randomNonce(),
  }),
);

describe('signature forms the token accepts', () => {
  it('keeps a canonical signature as it is', async () => {
    const sig = await buyer.signTypedData(JSON.parse(td));
    expect(canonicalSignature(sig)).toBe(sig);
  });
  it('flips a high s (and the parity) and maps v 0/1 to 27/28: same signer', async () => {
    const sig = parseSignature(await buyer.signTypedData(JSON.parse(td)));
    const high = serializeSignature({
      r: sig.r,
      s: `0x${(N - BigInt(sig.s)).toString(16).padStart(64, '0')}` as Hex,
      yParity: sig.yParity ? 0 : 1,
    });
    const canonical = canonicalSignature(high)!;
    expect(BigInt(parseSignature(canonical).s) <= N / 2n).toBe(true);
    expect(await verifyTransferAuthorization(td, buyer.address, high)).toBe(true);
    const v01 = high.slice(0, 130) + (sig.yParity ? '00' : '01');
    expect(canonicalSignature(v01)).toBe(canonical);
  });
  it('refuses what is no 65-byte signature', () => {
    expect(canonicalSignature('0x1234')).toBeNull();
    expect(canonicalSignature('not hex')).toBeNull();
  });
});

describe('revert strings of FiatToken v2.2, as refusals', () => {
  it.each([
    ['FiatTokenV2: authorization is used or canceled', 'authorization_used'],
    ['FiatTokenV2: authorization is expired', 'authorization_expired'],
    ['FiatTokenV2: authorization is not yet valid', 'authorization_not_yet_valid'],
    ['ERC20: transfer amount exceeds balance', 'insufficient_funds'],
    ['FiatTokenV2: invalid signature', 'invalid_signature'],
    ['Blacklistable: account is blacklisted', 'token_refused'],
    ['Pausable: paused', 'token_refused'],
    ['something else', 'transaction_reverted'],
  ])('%s -> %s', (text, code) => expect(refusalOf(text)).toBe(code));
});

describe('fees', () => {
  it('base (by peg) plus basis points, rounded down, never above the amount', () => {
    expect(feeInTokenUnits(10_000_000n, 'USD', 6, 10n, 150)).toBe(250_000n); // USD 0.10 + 1.5 % of 10.00
    expect(feeInTokenUnits(10_000_000n, 'USD', 6, 0n, 0)).toBe(0n);
    expect(feeInTokenUnits(3n, 'USD', 6, 0n, 3333)).toBe(0n); // 0.9999 rounds down
    expect(feeInTokenUnits(1_000_000n, 'USD', 6, 500n, 0)).toBe(1_000_000n); // capped at the amount
  });
});

describe('replacing a stuck transaction (src/domain/fees.ts)', () => {
  const gwei = (n: number) => BigInt(n * 1e9);
  const fees = (max: number, tip: number) => ({ maxFeePerGas: gwei(max), maxPriorityFeePerGas: gwei(tip) });
  const old = fees(10, 1);
  it('the network asks more only when a new transaction would offer more in either field', () => {
    expect(networkAsksMore(old, fees(10, 1))).toBe(false);
    expect(networkAsksMore(old, fees(8, 1))).toBe(false);
    expect(networkAsksMore(old, fees(10.1, 1))).toBe(true);
    expect(networkAsksMore(old, fees(9, 2))).toBe(true);
  });
  it('offers what the network asks, at least one replacement step more, never above the ceiling', () => {
    expect(replacementFees(old, fees(30, 1), gwei(100))).toEqual({ maxFeePerGas: gwei(30), maxPriorityFeePerGas: gwei(1.125) + 1n });
    expect(replacementFees(old, fees(10.5, 1), gwei(100))).toEqual({
      maxFeePerGas: gwei(11.25) + 1n,
      maxPriorityFeePerGas: gwei(1.125) + 1n,
    });
    expect(replacementFees(old, fees(30, 1), gwei(20))).toEqual({ maxFeePerGas: gwei(20), maxPriorityFeePerGas: gwei(1.125) + 1n });
    expect(replacementFees(old, fees(30, 1), gwei(11))).toBeNull(); // a step would pass the ceiling
    expect(replacementFees(fees(10, 10), fees(30, 1), gwei(11.25) + 1n)).toEqual({
      maxFeePerGas: gwei(11.25) + 1n,
      maxPriorityFeePerGas: gwei(11.25) + 1n,
    });
  });
  it('a cancellation can always replace: one step over the ceiling where the transaction is at it', () => {
    expect(cancellationFees(old, fees(30, 1), gwei(20))).toEqual({ maxFeePerGas: gwei(20), maxPriorityFeePerGas: gwei(1.125) + 1n });
    expect(cancellationFees(fees(20, 1), fees(30, 1), gwei(20))).toEqual({
      maxFeePerGas: gwei(22.5) + 1n,
      maxPriorityFeePerGas: gwei(1.125) + 1n,
    });
  });
});
