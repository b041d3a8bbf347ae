import { encodeFunctionData, erc20Abi, getAddress, maxUint256, type Hex } from 'viem';
import { buildTransferAuthorization } from '../../src/domain/eip3009';
import { allOrNone, callsOf, MULTICALL3_ADDRESS } from '../../src/domain/multicall3';
import { depositAuthorization } from '../../src/domain/x402Deposit';

// The deposit address's onward authorization (src/domain/x402Deposit.ts) and the all-or-none call that sends it with
// the buyer's (src/domain/multicall3.ts); on chain in tests/integration/x402Deposit.own.test.ts.

const TOKEN = getAddress('0xb19b36b1456E65E3A6D514D3F715f204BD59f431');
const BUYER = getAddress('0x1111111111111111111111111111111111111111');
const DEPOSIT = getAddress('0x2222222222222222222222222222222222222222');
const COLLECTOR = getAddress('0x3333333333333333333333333333333333333333');
const nonce = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;
const buyerAuthorization = (n: number) =>
  buildTransferAuthorization({
    kind: 'TransferWithAuthorization',
    domainName: 'USD Coin',
    domainVersion: '2',
    chainId: 31337,
    token: TOKEN,
    from: BUYER,
    to: DEPOSIT,
    value: 20_000n,
    validAfter: 100,
    validBefore: 200,
    nonce: nonce(n),
  });

describe('depositAuthorization', () => {
  it('moves what the buyer paid the deposit address on to the collector, the same value, on the same token', () => {
    const td = buyerAuthorization(1);
    const next = depositAuthorization(td, COLLECTOR);
    expect(next.primaryType).toBe('TransferWithAuthorization');
    expect(next.domain).toEqual(td.domain);
    expect(next.message).toMatchObject({ from: DEPOSIT, to: COLLECTOR, value: '20000', validAfter: '0' });
    // Never expires: a buyer's authorization sent alone by a third party is passed on however late.
    expect(BigInt(next.message.validBefore)).toBe(maxUint256);
  });

  it('has a nonce of its own per buyer authorization, the same every time it is built', () => {
    const a = depositAuthorization(buyerAuthorization(1), COLLECTOR).message.nonce;
    expect(depositAuthorization(buyerAuthorization(1), COLLECTOR).message.nonce).toBe(a);
    expect(depositAuthorization(buyerAuthorization(2), COLLECTOR).message.nonce).not.toBe(a);
    expect(a).not.toBe(nonce(1));
  });
});

describe('allOrNone', () => {
  const first = { to: TOKEN, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [DEPOSIT, 1n] }) };
  const second = { to: TOKEN, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [COLLECTOR, 1n] }) };

  it('is one Multicall3 call whose calls are read back in order', () => {
    const call = allOrNone([first, second]);
    expect(call.to).toBe(MULTICALL3_ADDRESS);
    expect(callsOf(call.data)).toEqual([first, second]);
  });

  it('reads no calls from other calldata', () => {
    expect(callsOf(first.data)).toBeNull();
    expect(callsOf('0x')).toBeNull();
  });
});
