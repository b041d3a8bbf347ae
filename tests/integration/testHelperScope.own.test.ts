import { getAddress, parseAbi, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { devnetDeployer, devnetTokenAddress } from '../../src/chain/devnet';
import { testScopeOf } from '../../src/domain/mode';
import { PERMIT2_ADDRESS } from '../../src/domain/permit2';
import { anvil, chainClient, newBuyer, receiptOf } from '../support/chain';
import { eventually, flow, useChainSuite, type Shop } from '../support/chainSuite';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { client, newKey, startTestService, type TestService } from '../support/service';
import { x402PayTo } from '../support/x402';

// What a test key's helpers may touch (issue 44, finding 7): a token's blacklist and a reorg act on the chain for every
// account, so a test key may blacklist only an address that is nobody else's, take back only its own blacklisting, and
// reorg only blocks whose relayer transactions are its own. Each refusal is checked on chain: nothing was sent.

useChainSuite();

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const RELAYER = generatePrivateKey();
const RETIRED = generatePrivateKey();
const SYMBOLS = ['USDC', 'EURC', 'USDT'];
const LISTED_ABI = parseAbi(['function isBlacklisted(address) view returns (bool)', 'function isBlackListed(address) view returns (bool)']);

/** Each token's own verdict on `address` (USDT spells its getter isBlackListed). */
const listed = (address: Address) =>
  Promise.all(
    SYMBOLS.map((s) =>
      chainClient().readContract({
        address: devnetTokenAddress(s),
        abi: LISTED_ABI,
        functionName: s === 'USDT' ? 'isBlackListed' : 'isBlacklisted',
        args: [address],
      }),
    ),
  );
const deployerSent = () => chainClient().getTransactionCount({ address: devnetDeployer.address });
const caip = (address: string) => `eip155:31337:${address}`;

describe('test helper scope (own chain, DEVNET_CONFIRMATIONS=6, a retired relayer key)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ DEVNET_CONFIRMATIONS: '6', DEVNET_RELAYER_KEYS: RELAYER, DEVNET_RETIRED_RELAYER_KEYS: RETIRED });
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** A test account's merchant, its preview helpers and the payment flow through a test wallet key. */
  async function shop(name: string) {
    const m: Shop = await merchantWithSettlement(svc, name, 'test');
    const helpers = client(svc.url, { 'Api-Key': m.apiKey, ...PREVIEW });
    const gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet', undefined, 'test')).apiKey });
    return { m, helpers, f: flow(svc.url, m, gw), scope: testScopeOf(m.accountId) };
  }
  const blacklist = (helpers: ReturnType<typeof client>, address: string) =>
    helpers('POST', '/v1/test-helpers/blacklist', { body: { account: caip(address) } });
  const unblacklist = (helpers: ReturnType<typeof client>, address: string) =>
    helpers('DELETE', `/v1/test-helpers/blacklist?account=${encodeURIComponent(caip(address))}`);
  const records = (address: string) => svc.db('test_helper_blacklists').where({ address: getAddress(address) });
  /** The payment is confirmed and its collect mined: its buyer is now the payment's. */
  async function paid(f: ReturnType<typeof flow>, buyer: ReturnType<typeof privateKeyToAccount>) {
    const id = await f.pay('1000');
    const { opt, td } = await f.option(id, buyer);
    const c = await f.confirm(id, opt.id, await buyer.signTypedData(td));
    if (c.body.status !== 'processing') throw new Error(c.text);
    const tx = await eventually(async () => {
      const t = await svc.db('chain_transactions').where({ payment_id: id, purpose: 'collect' }).first();
      if (t?.status !== 'mined') throw new Error('not mined yet');
      return t;
    });
    return { id, tx };
  }
  const expectForbidden = (r: { status: number; body: any }) => {
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'forbidden' });
    expect(r.body.message).toMatch(/test helper/);
  };

  it("blacklist refuses this instance's addresses: relayer, collector, retired key, deposit addresses, tokens, Permit2, deployer", async () => {
    const { m, helpers } = await shop('Scope Instance');
    const x402 = client(svc.url, { 'Api-Key': m.apiKey });
    const collector = (await x402('GET', '/x402/supported')).body.signers['eip155:*'][0];
    expect(collector).toBe(privateKeyToAccount(RELAYER).address);
    const sent = await deployerSent();
    // x402 deposit addresses (collector mode's payTo): the caller's own and another account's.
    const deposits = [(await x402PayTo(x402))!, (await x402PayTo(client(svc.url, { 'Api-Key': (await shop('Scope Deposit')).m.apiKey })))!];
    const own = [
      collector,
      privateKeyToAccount(RETIRED).address,
      devnetTokenAddress('USDC'),
      PERMIT2_ADDRESS,
      devnetDeployer.address,
      ...deposits,
    ];
    for (const address of own) {
      const before = await listed(address); // FiatToken lists its own contract from its initialisation on
      expectForbidden(await blacklist(helpers, address.toLowerCase()));
      expect(await listed(address)).toEqual(before);
      expect(await records(address)).toHaveLength(0);
    }
    expect(await deployerSent()).toBe(sent);
  });

  it("blacklist refuses another account's buyer, quoted buyer and settlement destination, the own live account's included", async () => {
    const a = await shop('Scope Caller');
    const b = await shop('Scope Other');
    const buyer = await newBuyer(10_000_000n);
    const { id } = await paid(b.f, buyer);
    const quoted = await newBuyer();
    await b.f.option(await b.f.pay('1000'), quoted);
    // The caller's own live account is another account: in development its payments run on this chain too.
    const live = client(svc.url, { 'Api-Key': (await newKey(a.m.accountId, 'partner')).apiKey });
    const liveWallet = privateKeyToAccount(generatePrivateKey()).address;
    const lm = await live('POST', '/v1/merchants', {
      body: { merchantName: 'Live', merchantEmail: 'm@x.io' },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    const ls = await live('POST', `/v1/merchants/${lm.body.merchant.id}/settlements/crypto`, {
      body: { settlements: [{ asset: `eip155:31337/erc20:${devnetTokenAddress('USDC')}`, destination: caip(liveWallet) }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(ls.status).toBe(201);
    const sent = await deployerSent();
    for (const address of [buyer.address, quoted.address, b.m.wallet, liveWallet]) {
      expectForbidden(await blacklist(a.helpers, address));
      expect(await listed(address)).toEqual([false, false, false]);
      expect(await records(address)).toHaveLength(0);
    }
    expect(await deployerSent()).toBe(sent);
    // The other account's payment goes on as if nothing had been asked.
    const done = await eventually(async () => {
      await anvil().mine({ blocks: 1 });
      const d = await b.f.details(id);
      if (d.status !== 'succeeded') throw new Error(d.status);
      return d;
    }, 30_000);
    expect((await receiptOf(done.info.txId)).status).toBe('success');
    // The caller's own merchant's destination is its own test: allowed.
    const mine = await blacklist(a.helpers, a.m.wallet);
    expect(mine.status).toBe(200);
    expect(await listed(a.m.wallet)).toEqual([true, true, true]);
    expect(await records(a.m.wallet)).toMatchObject([{ chain_id: 'eip155:31337', account_id: a.scope }]);
  });

  it('the undo: the caller takes back its own blacklisting; another account can neither take it back nor blacklist it too', async () => {
    const a = await shop('Scope Undo');
    const b = await shop('Scope Undo Other');
    const buyer = await newBuyer(10_000_000n);
    const r = await blacklist(a.helpers, buyer.address);
    expect(r.status).toBe(200);
    expect(await listed(buyer.address)).toEqual([true, true, true]);
    expect(await records(buyer.address)).toMatchObject([{ chain_id: 'eip155:31337', account_id: a.scope }]);
    const sent = await deployerSent();
    expectForbidden(await unblacklist(b.helpers, buyer.address));
    expectForbidden(await blacklist(b.helpers, buyer.address));
    expect(await deployerSent()).toBe(sent);
    expect(await listed(buyer.address)).toEqual([true, true, true]);
    expect(await records(buyer.address)).toMatchObject([{ account_id: a.scope }]);

    const u = await unblacklist(a.helpers, buyer.address.toLowerCase());
    expect(u.status).toBe(200);
    expect(u.body.account).toBe(caip(buyer.address));
    expect(u.body.unblacklisted.map((t: any) => t.asset.split('/')[1].split(':')[1])).toEqual(SYMBOLS.map(devnetTokenAddress));
    for (const t of u.body.unblacklisted) expect((await receiptOf(t.txHash)).status).toBe('success');
    expect(await listed(buyer.address)).toEqual([false, false, false]);
    expect(await records(buyer.address)).toHaveLength(0);
    // Taken back once: nothing of the caller's stands any more.
    expectForbidden(await unblacklist(a.helpers, buyer.address));
    // The tokens accept the buyer again: a confirm goes through.
    const id = await a.f.pay('1000');
    const { opt, td } = await a.f.option(id, buyer);
    expect((await a.f.confirm(id, opt.id, await buyer.signTypedData(td))).body.status).toBe('processing');
    // An address never blacklisted by the caller cannot be taken off; nor can a live key or a malformed account.
    const fresh = privateKeyToAccount(generatePrivateKey()).address;
    expectForbidden(await unblacklist(a.helpers, fresh));
    const liveKey = client(svc.url, { 'Api-Key': (await newKey(a.m.accountId, 'partner')).apiKey, ...PREVIEW });
    expect((await unblacklist(liveKey, fresh)).body.code).toBe('not_found');
    const malformed = await a.helpers('DELETE', '/v1/test-helpers/blacklist?account=eip155:31337:0x1234');
    expect(malformed.status).toBe(422);
    expect(malformed.body.code).toBe('invalid_account');
  });

  it("reorg refuses when the dropped blocks hold another account's relayer transaction; nothing changes on chain", async () => {
    const a = await shop('Scope Reorg');
    const b = await shop('Scope Reorg Other');
    // Funded first: each transaction is a block of its own (automine), and the caller's must stay short of the depth.
    const [buyerA, buyerB] = [await newBuyer(10_000_000n), await newBuyer(10_000_000n)];
    const mine = await paid(a.f, buyerA);
    const theirs = await paid(b.f, buyerB);
    expect(theirs.tx.sender).toBe(mine.tx.sender); // one relayer key signs for both accounts
    expect(Number(theirs.tx.block_number)).toBeGreaterThan(Number(mine.tx.block_number));
    const height = await chainClient().getBlockNumber();
    const r = await a.helpers('POST', `/v1/test-helpers/payments/${mine.id}/reorg`);
    expectForbidden(r);
    // The service may mine meanwhile (an earlier test's settlement); a reorg would replace the blocks checked below.
    expect(await chainClient().getBlockNumber()).toBeGreaterThanOrEqual(height);
    for (const t of [mine.tx, theirs.tx]) {
      expect((await chainClient().getBlock({ blockNumber: BigInt(t.block_number) })).hash).toBe(t.block_hash);
      expect((await receiptOf(t.tx_hash)).blockHash).toBe(t.block_hash);
    }
    // Mined and left in place: confirmations go on (the service's own blocks may bring it to succeeded), never failed.
    expect(['processing', 'succeeded']).toContain((await a.f.details(mine.id)).status);
  });
});
