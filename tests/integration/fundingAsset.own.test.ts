import { getAddress, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { devnetAssetId } from '../../src/chain/devnet';
import { balanceOf, chainClient, DEVNET2_CHAIN_ID, DEVNET_USDC, fund, newBuyer, rpcUrl, tokenAdmin } from '../support/chain';
import { eventually, flow, setup, type Shop, useChainSuite } from '../support/chainSuite';
import { uniqueKey } from '../support/fixtures';
import { PREVIEW, refundHelpers } from '../support/refundsSuite';
import { startRpcProxy } from '../support/rpcProxy';
import { adminWith, client, startTestService, type TestService } from '../support/service';

// A refund's funding counts towards the refund only in the refund's own token (docs/ledger.md "Funding"; issue 44,
// finding 1). The gateway and the x402 payment link offer a funding payment in the refund's token only, so the test
// makes a funding credited in another asset the two ways the ledger can still hold one: an ordinary payment on the
// second development chain, confirmed over the gateway and made the refund's funding in the database before its
// collect reaches the chain (as the x402 door let a funding payment be paid in another chain's USDC), and a
// `collected` journal that earmarks another asset for the refund, as the crediting wrote it before it checked the
// asset (planted in the database, its tokens minted to the collector so that the chain agrees). Neither may be
// spent by the refund, which sends its own token: before, the refund went out of the collector's pooled tokens of
// another account, GET /v1/balance answered 500 (a bucket below zero) and `admin ledger check` saw nothing.

useChainSuite();
// Two chains, four runs of the admin command: more than the suite's limit on a busy machine.
jest.setTimeout(300_000);

const USDC2 = devnetAssetId('USDC', DEVNET2_CHAIN_ID);

describe('a refund funded in another asset than its own', () => {
  let svc: TestService;
  let shop: Shop;
  let proxy2: Awaited<ReturnType<typeof startRpcProxy>>;
  const { mined, refund, preview } = refundHelpers(() => ({ svc, shop }));

  beforeAll(async () => {
    // The service reaches the second chain through a proxy that can hold its broadcasts back.
    proxy2 = await startRpcProxy(rpcUrl(DEVNET2_CHAIN_ID));
    svc = await startTestService({ DEVNET2_RPC_URL: proxy2.url });
  });
  afterAll(async () => {
    await svc.close();
    await proxy2.close();
  });

  const balances = async (s: Shop) => {
    const r = await client(svc.url, { 'Api-Key': s.apiKey, ...PREVIEW })('GET', '/v1/balance');
    expect(r.status).toBe(200);
    return r.body.balances as { asset: string; available: string; pending: string; reserved: string }[];
  };
  const check = async (...args: string[]) => {
    const r = await adminWith({}, 'ledger', 'check', '--wait', '10', ...args);
    return { code: r.code, differences: r.out.differences, negative: r.out.negative };
  };
  const clean = { code: 0, differences: [], negative: [] };
  const refundNow = async (id: string) => (await preview()('GET', `/v1/refunds/${id}`)).body.refund;

  it('is credited to the account in the asset paid, never earmarked nor sent from other accounts’ tokens; the check names any violation', async () => {
    // Another account's 9.90 (fee 0.10 at the default terms, whatever they are, read from the ledger) waits at the
    // collector: its destination is blacklisted, so its settlement cannot leave.
    const other = await setup(svc);
    const og = flow(svc.url, other.shop, other.gw);
    await mined(tokenAdmin('blacklist', other.shop.wallet as Hex));
    const ob = await newBuyer(100_000_000n);
    const op = await og.pay('1000');
    const oo = await og.option(op, ob);
    expect((await og.confirm(op, oo.opt.id, await ob.signTypedData(oo.td))).status).toBe(200);
    await og.until(op, (x) => x.status === 'succeeded');
    const collector = getAddress(oo.td.message.to);
    const pooled = await balanceOf(collector);
    expect(pooled).toBe(10_000_000n);

    // The shop: a USD 5.00 payment, settled, so that nothing of its account is left at the collector; its refund
    // waits for funds.
    const s = await setup(svc);
    shop = s.shop;
    const g = flow(svc.url, shop, s.gw);
    const added = await shop.api('POST', `/v1/merchants/${shop.merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: USDC2, destination: `eip155:${DEVNET2_CHAIN_ID}:${shop.wallet}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    expect(added.status).toBe(201);
    const buyer = await newBuyer(100_000_000n);
    const p = await g.pay('500');
    const po = await g.option(p, buyer);
    expect((await g.confirm(p, po.opt.id, await buyer.signTypedData(po.td))).status).toBe(200);
    await g.until(p, (x) => x.settlement !== null);
    const r = (await refund(p)).body.refund;
    expect(r.status).toBe('requires_funding');
    expect(r.tokenAmount.value).toBe('5000000');

    // An ordinary payment of the account on the second chain, its collect held back at the proxy, made the refund's
    // funding meanwhile: credited to the account's available USDC of that chain, not earmarked, not settled.
    const funder = await newBuyer();
    await fund(funder.address, 5_000_000n, 'USDC', DEVNET2_CHAIN_ID);
    const other2 = await g.pay('500');
    const o2 = await optionOn(s.gw, other2, funder, DEVNET2_CHAIN_ID);
    expect(o2.td.domain.chainId).toBe(DEVNET2_CHAIN_ID);
    proxy2.refuse('eth_sendRawTransaction');
    try {
      expect((await g.confirm(other2, o2.opt.id, await funder.signTypedData(o2.td))).status).toBe(200);
      await eventually(async () =>
        expect(await svc.db('chain_transactions').where({ payment_id: other2, purpose: 'collect' })).toHaveLength(1),
      );
      await svc.db('refund_fundings').insert({ refund_id: r.id, payment_id: other2 });
    } finally {
      proxy2.up();
    }
    await g.until(other2, (x) => x.status === 'succeeded');
    const credited = await eventually(async () => {
      const rows = await svc
        .db('ledger_entries as e')
        .join('ledger_journals as j', 'j.id', 'e.journal_id')
        .where({ 'j.ref': `collected:${other2}`, 'e.owner': shop.accountId })
        .select('j.refund_id', 'e.bucket', 'e.asset', 'e.holder', 'e.amount');
      if (!rows.length) throw new Error('not collected yet');
      return rows;
    });
    expect(credited).toEqual([{ refund_id: null, bucket: 'available', asset: USDC2, holder: collector, amount: '5000000' }]);
    // Looked at again after that collect, still short in its own token: another funding payment, in that token.
    const second = await eventually(async () => {
      const x = await refundNow(r.id);
      if (x.status !== 'requires_funding' || [r.fundingInstructions.paymentId, other2].includes(x.fundingInstructions?.paymentId))
        throw new Error(JSON.stringify(x));
      return x.fundingInstructions.paymentId as string;
    });
    expect(await balanceOf(collector)).toBe(pooled);
    expect(await balanceOf(buyer.address)).toBe(95_000_000n);

    // A journal as the crediting wrote it before it checked the asset: 2.00 of the second chain's USDC earmarked for
    // the refund at the collector, which holds them.
    const minted = await fund(collector, 2_000_000n, 'USDC', DEVNET2_CHAIN_ID);
    const receipt = await chainClient(DEVNET2_CHAIN_ID).waitForTransactionReceipt({ hash: minted });
    await svc.db.transaction(async (trx) => {
      const [j] = await trx('ledger_journals')
        .insert({
          ref: `collected:old-${r.id}`,
          kind: 'collected',
          account_id: shop.accountId,
          refund_id: r.id,
          chain_id: `eip155:${DEVNET2_CHAIN_ID}`,
          tx_hash: minted,
          block_number: receipt.blockNumber.toString(),
        })
        .returning('id');
      await trx('ledger_entries').insert([
        { journal_id: j.id, owner: 'world', bucket: 'external', asset: USDC2, holder: null, amount: '-2000000' },
        { journal_id: j.id, owner: shop.accountId, bucket: 'funding', asset: USDC2, holder: collector, amount: '2000000' },
      ]);
    });
    expect(await balances(shop)).toEqual([
      { asset: DEVNET_USDC, available: '0', pending: '0', reserved: '0', reserve: '0' },
      { asset: USDC2, available: '5000000', pending: '0', reserved: '2000000', reserve: '0' },
    ]);
    expect(await check()).toEqual(clean);

    // Its funding payment paid in its own token: the refund goes out of that, the other account's tokens stay, and
    // what the old journal earmarked goes to the account's available balance of its own asset.
    const fo = await g.option(second, funder);
    await fund(funder.address, BigInt(fo.opt.amount.value));
    expect((await g.confirm(second, fo.opt.id, await funder.signTypedData(fo.td))).status).toBe(200);
    await eventually(async () => expect((await refundNow(r.id)).status).toBe('succeeded'), 30_000);
    expect(await balanceOf(buyer.address)).toBe(100_000_000n);
    expect(await balanceOf(collector)).toBe(pooled);
    await eventually(async () =>
      expect(await balances(shop)).toEqual([
        { asset: DEVNET_USDC, available: '0', pending: '0', reserved: '0', reserve: '0' },
        { asset: USDC2, available: '7000000', pending: '0', reserved: '0', reserve: '0' },
      ]),
    );
    expect(await balances(other.shop)).toEqual([
      { asset: DEVNET_USDC, available: expect.any(String), pending: '0', reserved: '0', reserve: '0' },
    ]);
    expect(await check()).toEqual(clean);

    // The chain moved under the ledger: the collector's holding of the second chain's USDC differs, named with whose it is.
    await chainClient(DEVNET2_CHAIN_ID).waitForTransactionReceipt({ hash: await fund(collector, 1234n, 'USDC', DEVNET2_CHAIN_ID) });
    const moved = await check();
    expect(moved.code).toBe(1);
    expect(moved.negative).toEqual([]);
    expect(moved.differences).toEqual([
      expect.objectContaining({
        chainId: `eip155:${DEVNET2_CHAIN_ID}`,
        asset: USDC2,
        holder: collector,
        difference: '1234',
        accounts: [{ owner: shop.accountId, bucket: 'available', amount: '7000000' }],
      }),
    ]);
    // One account's money spent as another's: the collector's total is right, the other account's bucket is below zero.
    const theirs = BigInt((await balances(other.shop))[0].available);
    await svc.db.transaction(async (trx) => {
      const [j] = await trx('ledger_journals')
        .insert({ ref: `test:spent-as-another:${r.id}`, kind: 'refund_reserved' })
        .returning('id');
      const amount = (theirs + 1n).toString();
      await trx('ledger_entries').insert([
        { journal_id: j.id, owner: other.shop.accountId, bucket: 'available', asset: DEVNET_USDC, holder: collector, amount: `-${amount}` },
        { journal_id: j.id, owner: shop.accountId, bucket: 'reserved', asset: DEVNET_USDC, holder: collector, amount },
      ]);
    });
    const spent = await check('--chain', 'eip155:31337');
    expect(spent).toEqual({
      code: 1,
      differences: [],
      negative: [
        { chainId: 'eip155:31337', asset: DEVNET_USDC, holder: collector, owner: other.shop.accountId, bucket: 'available', amount: '-1' },
      ],
    });
    await mined(tokenAdmin('unBlacklist', other.shop.wallet as Hex));
  });
});

/** The gateway's first option on `chainId` for `payer`, and its typed data. */
async function optionOn(gw: ReturnType<typeof client>, paymentId: string, payer: PrivateKeyAccount, chainId: number) {
  const r = await gw('POST', `/v1/gateway/payment/${paymentId}/options`, { body: { accounts: [`eip155:${chainId}:${payer.address}`] } });
  if (r.status !== 200 || !r.body.options?.length) throw new Error(r.text);
  const opt = r.body.options[0];
  return { opt, td: JSON.parse(opt.actions[0].data.params[1]) };
}
