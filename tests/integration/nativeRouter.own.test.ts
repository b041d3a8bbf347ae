import { createWalletClient, http, zeroAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { devnetSetBalance } from '../../src/chain/anvil';
import { devnetChain, devnetTokenAddress } from '../../src/chain/devnet';
import { DEVNET_CHAIN_ID } from '../../src/chain/devnetChains';
import { devnetSetPrice, devnetSetRound } from '../../src/chain/devnetNative';
import { decodeRouterPay, devnetRouterAddress, encodeRouterPay, paidEvents, paymentRef, ROUTER_ABI } from '../../src/chain/nativeRouter';
import { DEVNET_FEEDS, devnetFeedAddress, FEED_ABI, readFeed } from '../../src/chain/priceFeed';
import { isStale } from '../../src/domain/nativePrice';
import { chainClient, DEVNET2_CHAIN_ID, newWallet, rpcUrl } from '../support/chain';
import { newSmartWallet } from '../support/smartWallet';

// Payments in the native coin on the development chains: PaygateRouter (contracts/router/PaygateRouter.sol) forwards
// exactly what it is paid and logs Paid, or refuses the whole call; the ETH price feeds answer as Chainlink's do.
// Every balance and answer is read back from the chain.

jest.setTimeout(120_000);

const ROUTER = devnetRouterAddress;
const USDT = devnetTokenAddress('USDT');
const pub = chainClient();

/** A new key with 10 ETH for gas and payments on `chainId`. */
async function payer(chainId: number = DEVNET_CHAIN_ID): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  await devnetSetBalance(rpcUrl(chainId), account.address, '10');
  return account;
}

const walletOf = (account: PrivateKeyAccount) =>
  createWalletClient({ chain: devnetChain(rpcUrl(), DEVNET_CHAIN_ID), transport: http(rpcUrl()), account });

/** Sends a transaction with a fixed gas limit (so a reverting one is mined, not refused); its receipt and what it cost in gas. */
async function send(account: PrivateKeyAccount, tx: { to: Address; data?: Hex; value: bigint }) {
  const hash = await walletOf(account).sendTransaction({ ...tx, gas: 200_000n });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return { hash, receipt, gas: receipt.gasUsed * receipt.effectiveGasPrice };
}

const latest = async () => (await pub.getBlock({ blockTag: 'latest' })).timestamp;
const balance = (address: Address, client = pub) => client.getBalance({ address });

describe('PaygateRouter', () => {
  it('is deployed on both development chains, with the price feeds, and holds nothing', async () => {
    for (const chainId of [DEVNET_CHAIN_ID, DEVNET2_CHAIN_ID]) {
      const client = chainClient(chainId);
      for (const address of [ROUTER, devnetFeedAddress('USD')!, devnetFeedAddress('EUR')!])
        expect(await client.getCode({ address })).toMatch(/^0x[0-9a-f]{100,}$/);
      expect(await balance(ROUTER, client)).toBe(0n);
    }
    expect(devnetFeedAddress('GBP')).toBeUndefined();
  });

  it('a pay forwards exactly its value to the destination and logs Paid with the reference', async () => {
    const buyer = await payer();
    const to = newWallet();
    const ref = paymentRef(`pay_${Date.now()}`);
    const amount = 3_333_333_333_333_334n;
    const call = { ref, to, amount, deadline: (await latest()) + 600n };
    const before = await balance(buyer.address);
    const { hash, receipt, gas } = await send(buyer, { to: ROUTER, data: encodeRouterPay(call), value: amount });
    expect(receipt.status).toBe('success');
    expect(await balance(to)).toBe(amount);
    expect(await balance(buyer.address)).toBe(before - amount - gas);
    expect(await balance(ROUTER)).toBe(0n);
    expect(paidEvents(receipt.logs, ROUTER)).toEqual([{ ref, payer: buyer.address, to, amount }]);
    expect(paidEvents(receipt.logs, USDT)).toEqual([]); // only the router's logs count
    expect(decodeRouterPay((await pub.getTransaction({ hash })).input)).toEqual(call);
  });

  it("a payer pays a reference once: a second pay reverts and forwards nothing; another payer's use of it blocks nothing", async () => {
    const [buyer, other] = [await payer(), await payer()];
    const to = newWallet();
    const ref = paymentRef(`once_${Date.now()}`);
    const call = { ref, to, amount: 5_000n, deadline: (await latest()) + 600n };
    const pay = (who: PrivateKeyAccount, c = call) => send(who, { to: ROUTER, data: encodeRouterPay(c), value: c.amount });
    const isPaid = (who: Address) => pub.readContract({ address: ROUTER, abi: ROUTER_ABI, functionName: 'isPaid', args: [ref, who] });
    expect([await isPaid(buyer.address), await isPaid(other.address)]).toEqual([false, false]);
    // Someone else pays the same reference first (1 wei to themselves): the buyer's payment still goes through.
    expect((await pay(other, { ...call, to: other.address, amount: 1n })).receipt.status).toBe('success');
    expect((await pay(buyer)).receipt.status).toBe('success');
    expect([await isPaid(buyer.address), await isPaid(other.address)]).toEqual([true, true]);
    const second = await pay(buyer);
    expect(second.receipt.status).toBe('reverted');
    expect(await balance(to)).toBe(5_000n);
    expect(await balance(ROUTER)).toBe(0n);
  });

  it('a contract wallet destination receives the coin (the router forwards all gas)', async () => {
    const wallet = newSmartWallet();
    await wallet.deployAndExecute(newWallet(), '0x'); // deploys it
    const buyer = await payer();
    const ref = paymentRef(`wallet_${Date.now()}`);
    const { receipt } = await send(buyer, {
      to: ROUTER,
      data: encodeRouterPay({ ref, to: wallet.address, amount: 12_345n, deadline: (await latest()) + 600n }),
      value: 12_345n,
    });
    expect(receipt.status).toBe('success');
    expect(await balance(wallet.address)).toBe(12_345n);
    expect(paidEvents(receipt.logs, ROUTER)).toEqual([{ ref, payer: buyer.address, to: wallet.address, amount: 12_345n }]);
  });

  it('the development USDT has no payable fallback: a plain send of coin to it reverts (the refusing destination below)', async () => {
    const buyer = await payer();
    await expect(pub.estimateGas({ account: buyer, to: USDT, value: 1n })).rejects.toThrow(/revert/i);
    const before = await balance(USDT);
    expect((await send(buyer, { to: USDT, value: 1n })).receipt.status).toBe('reverted');
    expect(await balance(USDT)).toBe(before);
  });

  type Case = { ref?: Hex; to?: Address; amount?: bigint; value?: bigint; expired?: boolean };
  const cases: [string, Case][] = [
    ['less coin than the amount', { value: 999n }],
    ['more coin than the amount', { value: 1001n }],
    ['an amount of 0 (and no coin)', { amount: 0n, value: 0n }],
    ['a deadline passed', { expired: true }],
    ['a zero reference', { ref: `0x${'00'.repeat(32)}` }],
    ['the zero address as destination', { to: zeroAddress }],
    ['a destination that refuses coin (USDT)', { to: USDT }],
  ];

  it.each(cases)('refuses %s: the call reverts, a mined one costs only gas and forwards nothing', async (_, c) => {
    const buyer = await payer();
    const to = c.to ?? newWallet();
    const amount = c.amount ?? 1000n;
    const value = c.value ?? amount;
    const now = await latest();
    const args = [c.ref ?? paymentRef(`refused_${Date.now()}`), to, amount, c.expired ? now - 1n : now + 600n] as const;
    await expect(
      pub.simulateContract({ account: buyer, address: ROUTER, abi: ROUTER_ABI, functionName: 'pay', args, value }),
    ).rejects.toThrow(/revert/i);
    const data = encodeRouterPay({ ref: args[0], to, amount, deadline: args[3] });
    await expect(pub.estimateGas({ account: buyer, to: ROUTER, data, value })).rejects.toThrow(/revert/i);

    const { receipt, gas } = await send(buyer, { to: ROUTER, data, value });
    expect(receipt.status).toBe('reverted');
    expect(receipt.logs).toEqual([]);
    // Balances in the block before the transaction's and in its block (other test files mine on this chain too).
    const at = (address: Address, blockNumber: bigint) => pub.getBalance({ address, blockNumber });
    const [n, block] = [receipt.blockNumber, await pub.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true })];
    expect(await at(buyer.address, n)).toBe((await at(buyer.address, n - 1n)) - gas);
    // The zero address is anvil's coinbase: it receives the block's priority fees, and nothing else.
    let tips = 0n;
    if (to === block.miner)
      for (const tx of block.transactions) {
        const r = await pub.getTransactionReceipt({ hash: tx.hash });
        tips += r.gasUsed * (r.effectiveGasPrice - block.baseFeePerGas!);
      }
    expect(await at(to, n)).toBe((await at(to, n - 1n)) + tips);
    expect(await at(ROUTER, n)).toBe(0n);
  });

  it('refuses coin sent to it without a pay call (no fallback function)', async () => {
    const buyer = await payer();
    await expect(pub.estimateGas({ account: buyer, to: ROUTER, value: 1000n })).rejects.toThrow(/revert/i);
    const before = await balance(buyer.address);
    const { receipt, gas } = await send(buyer, { to: ROUTER, value: 1000n });
    expect(receipt.status).toBe('reverted');
    expect(await balance(buyer.address)).toBe(before - gas);
    expect(await balance(ROUTER)).toBe(0n);
  });

  it('decodeRouterPay reads only an exact pay call', () => {
    const call = { ref: paymentRef('p'), to: newWallet(), amount: 5n, deadline: 1_900_000_000n };
    const data = encodeRouterPay(call);
    expect(decodeRouterPay(data)).toEqual(call);
    expect(decodeRouterPay(`${data}00`)).toBeNull(); // longer
    expect(decodeRouterPay(data.slice(0, -2) as Hex)).toBeNull(); // shorter
    expect(decodeRouterPay(`0xdeadbeef${data.slice(10)}`)).toBeNull(); // another selector
    expect(decodeRouterPay(`0x${data.slice(2, 74)}ff${data.slice(76)}`)).toBeNull(); // bits above the address's 20 bytes
    expect(decodeRouterPay('0x')).toBeNull();
  });
});

describe('the ETH price feeds (on the second development chain: tests here move its prices)', () => {
  const chainId = DEVNET2_CHAIN_ID;
  const url = rpcUrl(chainId);
  const client = chainClient(chainId);
  const usd = devnetFeedAddress('USD')!;
  afterAll(async () => {
    for (const f of DEVNET_FEEDS) await devnetSetPrice(url, f.currency, f.answer);
  });

  it('answer as Chainlink feeds do; setPrice opens a new round and keeps the old; only the deployer sets prices', async () => {
    for (const f of DEVNET_FEEDS) {
      await devnetSetPrice(url, f.currency, f.answer);
      const feed = devnetFeedAddress(f.currency)!;
      expect(await readFeed(client, feed)).toMatchObject({ answer: f.answer, decimals: 8 });
      expect(await client.readContract({ address: feed, abi: FEED_ABI, functionName: 'description' })).toBe(f.description);
      expect(await client.readContract({ address: feed, abi: FEED_ABI, functionName: 'version' })).toBe(4n);
    }
    const first = await readFeed(client, usd);
    const hash = await devnetSetPrice(url, 'USD', 3123_45678900n);
    const block = await client.getBlock({ blockNumber: (await client.getTransactionReceipt({ hash })).blockNumber });
    expect(await readFeed(client, usd)).toEqual({
      roundId: first.roundId + 1n,
      answer: 3123_45678900n,
      decimals: 8,
      updatedAt: block.timestamp,
    });
    const [roundId, answer, , updatedAt] = await client.readContract({
      address: usd,
      abi: FEED_ABI,
      functionName: 'getRoundData',
      args: [first.roundId],
    });
    expect({ roundId, answer, updatedAt }).toEqual({ roundId: first.roundId, answer: first.answer, updatedAt: first.updatedAt });
    await expect(
      client.readContract({ address: usd, abi: FEED_ABI, functionName: 'getRoundData', args: [first.roundId + 1000n] }),
    ).rejects.toThrow(/revert/i);

    const stranger = await payer(chainId);
    await expect(
      client.simulateContract({ account: stranger, address: usd, abi: FEED_ABI, functionName: 'setPrice', args: [1n] }),
    ).rejects.toThrow(/revert/i);
  });

  it('setRound makes a stale latest round readable; readFeed refuses an answer that is no price', async () => {
    const now = (await client.getBlock({ blockTag: 'latest' })).timestamp;
    const { roundId } = await readFeed(client, usd);
    await devnetSetRound(url, 'USD', { roundId: roundId + 1n, answer: 2999_00000000n, updatedAt: now - 7200n });
    const stale = await readFeed(client, usd);
    expect(stale).toEqual({ roundId: roundId + 1n, answer: 2999_00000000n, decimals: 8, updatedAt: now - 7200n });
    expect(isStale(stale.updatedAt, now, 3600)).toBe(true);
    expect(isStale(stale.updatedAt, now, 7200)).toBe(false);

    for (const answer of [0n, -1n]) {
      await devnetSetRound(url, 'USD', { roundId: roundId + 2n, answer, updatedAt: now });
      await expect(readFeed(client, usd)).rejects.toThrow(`answers ${answer} in round ${roundId + 2n}: not a price`);
    }
    await devnetSetPrice(url, 'USD', 3000_00000000n);
    expect(await readFeed(client, usd)).toMatchObject({ roundId: roundId + 3n, answer: 3000_00000000n });
  });
});
