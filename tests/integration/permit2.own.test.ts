import { encodeFunctionData, getAddress, parseAbi } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { PERMIT2_ADDRESS } from '../../src/domain/permit2';
import { balanceOf, chainClient, DEVNET2_CHAIN_ID, DEVNET_USDC, receiptOf } from '../support/chain';
import { newUsdtBuyer, sendAction, signOf, USDT, usdtShop, type UsdtShop } from '../support/permit2';
import { startTestService, type TestService } from '../support/service';

// Permit2 payments (issue 29) on the development chain, with its Tether-like USDT: the options in the hosted wire
// form (approve first while the allowance is short, then the PermitTransferFrom signature), confirm's refusals
// before anything moves, and real tokens moving in collector and direct mode.

jest.setTimeout(120_000);

const PERMIT2_USER_ABI = parseAbi(['function invalidateUnorderedNonces(uint256 wordPos, uint256 mask)']);

describe('Permit2 payments on the development chain', () => {
  let svc: TestService;
  let collector: UsdtShop;

  beforeAll(async () => {
    svc = await startTestService();
    collector = await usdtShop(svc, 'USDT Shop', 'collector');
  });
  afterAll(() => svc.close());

  /** Nothing moved and the payment is still payable. */
  async function nothingMoved(id: string, buyer: PrivateKeyAccount, usdt: bigint) {
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
    expect(await svc.db('chain_transactions').where({ payment_id: id })).toHaveLength(0);
    expect(await balanceOf(buyer.address, 'USDT')).toBe(usdt);
  }

  it('collector mode: approve, then the permit; USDT moves buyer -> relayer -> merchant; the next payment needs no approve', async () => {
    const buyer = await newUsdtBuyer(25_000_000n);
    const id = await collector.pay('1000');
    const { all, opt, actions } = await collector.usdtOption(id, buyer);
    // A merchant settling USDC and USDT: one option per settled asset for the buyer's account.
    expect(all.map((o: any) => o.amount.unit).sort()).toEqual([`caip19/${DEVNET_USDC}`, `caip19/${USDT}`].sort());
    expect(opt.amount).toMatchObject({ value: '10000000', display: { assetSymbol: 'USDT', decimals: 6 } });
    expect(actions.map((a) => a.data.method)).toEqual(['eth_sendTransaction', 'eth_signTypedData_v4']);
    expect(actions[0].data.chain_id).toBe('eip155:31337');
    const td = JSON.parse(actions[1].data.params[1]);
    expect(td.domain).toEqual({ name: 'Permit2', chainId: 31337, verifyingContract: PERMIT2_ADDRESS });
    expect(td.message.permitted).toEqual({ token: getAddress(USDT.split(':').pop()!), amount: '10000000' });
    const stored = await svc.db('payment_options').where({ id: opt.id }).first();
    expect(td.message.spender).toBe(getAddress(stored.relayer));
    expect(stored.permit_to).toBe(getAddress(stored.relayer));

    const approveTx = await sendAction(buyer, actions[0].data.params[0]);
    const sig = await signOf(buyer, actions[1]);
    const r = await collector.confirm(id, opt.id, [[approveTx], [sig]]);
    expect({ status: r.status, body: r.body.status }).toEqual({ status: 200, body: 'processing' });
    const d = await collector.until(id, (x) => x.status === 'succeeded' && x.settlement?.successful !== undefined);
    expect({ status: d.status, settled: d.settlement !== null }).toEqual({ status: 'succeeded', settled: true });
    expect(d.settlement.successful.amount).toEqual({ unit: `caip19/${USDT}`, value: '10000000' });
    expect(await balanceOf(buyer.address, 'USDT')).toBe(15_000_000n);
    expect(await balanceOf(collector.wallet, 'USDT')).toBe(10_000_000n);
    const txs = await svc.db('chain_transactions').where({ payment_id: id }).orderBy('created_at');
    expect(txs.map((t) => [t.purpose, t.status, getAddress(t.to_address)])).toEqual([
      ['collect', 'confirmed', PERMIT2_ADDRESS],
      ['settle', 'confirmed', getAddress(USDT.split(':').pop()!)],
    ]);
    expect((await receiptOf(d.info.txId)).status).toBe('success');
    expect(await svc.db('payment_authorizations').where({ payment_id: id })).toEqual([
      expect.objectContaining({ token: PERMIT2_ADDRESS, from_address: buyer.address }),
    ]);

    // The allowance now suffices: only the signature, confirmed in the one-result form.
    const id2 = await collector.pay('500');
    const second = await collector.usdtOption(id2, buyer);
    expect(second.actions.map((a) => a.data.method)).toEqual(['eth_signTypedData_v4']);
    expect((await collector.confirm(id2, second.opt.id, [[await signOf(buyer, second.actions[0])]])).status).toBe(200);
    const d2 = await collector.until(id2, (x) => x.status === 'succeeded' && x.settlement !== null);
    expect({ status: d2.status, settled: d2.settlement !== null }).toEqual({ status: 'succeeded', settled: true });
    expect(await balanceOf(buyer.address, 'USDT')).toBe(10_000_000n);
    expect(await balanceOf(collector.wallet, 'USDT')).toBe(15_000_000n);
  });

  it('direct mode: the permit moves USDT straight to the destination; results packed in one entry', async () => {
    const direct = await usdtShop(svc, 'USDT Direct Shop', 'direct');
    const buyer = await newUsdtBuyer(5_000_000n);
    const id = await direct.pay('500');
    const { opt, actions } = await direct.usdtOption(id, buyer);
    expect((await svc.db('payment_options').where({ id: opt.id }).first()).permit_to).toBe(getAddress(direct.wallet));
    const fetched = await direct.gw('POST', `/v1/gateway/payment/${id}/fetch`, { body: { optionId: opt.id, data: null } });
    expect(fetched.body.actions).toEqual(actions);
    const approveTx = await sendAction(buyer, actions[0].data.params[0]);
    expect((await direct.confirm(id, opt.id, [[approveTx, await signOf(buyer, actions[1])]])).status).toBe(200);
    const d = await direct.until(id, (x) => x.status === 'succeeded');
    expect(d.status).toBe('succeeded');
    expect(await balanceOf(buyer.address, 'USDT')).toBe(0n);
    expect(await balanceOf(direct.wallet, 'USDT')).toBe(5_000_000n);
    expect((await svc.db('chain_transactions').where({ payment_id: id })).map((t) => t.purpose)).toEqual(['direct']);
    expect((await receiptOf(d.info.txId)).status).toBe('success');
  });

  it('a USDT payment on the second development chain: its own option, approve and permit there', async () => {
    const second = await usdtShop(svc, 'USDT Second Chain Shop', 'direct', DEVNET2_CHAIN_ID);
    const buyer = await newUsdtBuyer(3_000_000n, DEVNET2_CHAIN_ID);
    const id = await second.pay('300');
    const { all, opt, actions } = await second.usdtOption(id, buyer);
    // The buyer's account is on the second chain: the merchant's USDC on the first is no option for it.
    expect(all).toHaveLength(1);
    expect(actions.map((a) => a.data.chain_id)).toEqual([`eip155:${DEVNET2_CHAIN_ID}`, `eip155:${DEVNET2_CHAIN_ID}`]);
    expect(JSON.parse(actions[1].data.params[1]).domain.chainId).toBe(DEVNET2_CHAIN_ID);
    const approveTx = await sendAction(buyer, actions[0].data.params[0], DEVNET2_CHAIN_ID);
    expect((await second.confirm(id, opt.id, [[approveTx], [await signOf(buyer, actions[1])]])).status).toBe(200);
    const d = await second.until(id, (x) => x.status === 'succeeded');
    expect(d.status).toBe('succeeded');
    expect(await balanceOf(buyer.address, 'USDT', DEVNET2_CHAIN_ID)).toBe(0n);
    expect(await balanceOf(second.wallet, 'USDT', DEVNET2_CHAIN_ID)).toBe(3_000_000n);
    expect((await chainClient(DEVNET2_CHAIN_ID).getTransactionReceipt({ hash: d.info.txId })).status).toBe('success');
  });

  it('refuses, with nothing moved: allowance short, balance short, invalid signature, nonce used, deadline passed', async () => {
    // Allowance short: the buyer signs but never approves.
    const unapproved = await newUsdtBuyer(10_000_000n);
    const a = await collector.pay('1000');
    const oa = await collector.usdtOption(a, unapproved);
    const refusedA = await collector.confirm(a, oa.opt.id, [[await signOf(unapproved, oa.actions[1])]]);
    expect({ status: refusedA.status, code: refusedA.body.code }).toEqual({ status: 422, code: 'allowance_insufficient' });
    await nothingMoved(a, unapproved, 10_000_000n);

    // Balance short: approved, funded below the amount.
    const poor = await newUsdtBuyer(9_999_999n);
    const b = await collector.pay('1000');
    const ob = await collector.usdtOption(b, poor);
    const approveB = await sendAction(poor, ob.actions[0].data.params[0]);
    const refusedB = await collector.confirm(b, ob.opt.id, [[approveB], [await signOf(poor, ob.actions[1])]]);
    expect({ status: refusedB.status, code: refusedB.body.code }).toEqual({ status: 422, code: 'insufficient_funds' });
    await nothingMoved(b, poor, 9_999_999n);

    // Invalid signature: signed by another key.
    const buyer = await newUsdtBuyer(10_000_000n);
    const c = await collector.pay('1000');
    const oc = await collector.usdtOption(c, buyer);
    await sendAction(buyer, oc.actions[0].data.params[0]);
    const intruder = privateKeyToAccount(generatePrivateKey());
    const refusedC = await collector.confirm(c, oc.opt.id, [[await signOf(intruder, oc.actions[1])]]);
    expect({ status: refusedC.status, code: refusedC.body.code }).toEqual({ status: 422, code: 'invalid_signature' });
    await nothingMoved(c, buyer, 10_000_000n);

    // Nonce used: the buyer invalidates the permit's nonce in Permit2 before confirming.
    const d = await collector.pay('1000');
    const od = await collector.usdtOption(d, buyer);
    expect(od.actions).toHaveLength(1);
    const nonce = BigInt(JSON.parse(od.actions[0].data.params[1]).message.nonce);
    const invalidate = encodeFunctionData({
      abi: PERMIT2_USER_ABI,
      functionName: 'invalidateUnorderedNonces',
      args: [nonce >> 8n, 1n << (nonce & 255n)],
    });
    await sendAction(buyer, { from: buyer.address, to: PERMIT2_ADDRESS, value: '0x0', data: invalidate });
    const refusedD = await collector.confirm(d, od.opt.id, [[await signOf(buyer, od.actions[0])]]);
    expect({ status: refusedD.status, code: refusedD.body.code }).toEqual({ status: 422, code: 'authorization_used' });
    await nothingMoved(d, buyer, 10_000_000n);

    // Deadline passed: the stored permit's deadline set in the past (the quote itself still valid), signed as it is.
    const e = await collector.pay('1000');
    const oe = await collector.usdtOption(e, buyer);
    const row = await svc.db('payment_options').where({ id: oe.opt.id }).first();
    const past = JSON.parse(row.typed_data);
    past.message.deadline = String(Math.floor(Date.now() / 1000) - 3600);
    await svc
      .db('payment_options')
      .where({ id: oe.opt.id })
      .update({ typed_data: JSON.stringify(past) });
    const refusedE = await collector.confirm(e, oe.opt.id, [[await buyer.signTypedData(past)]]);
    expect({ status: refusedE.status, code: refusedE.body.code }).toEqual({ status: 422, code: 'authorization_expired' });
    await nothingMoved(e, buyer, 10_000_000n);

    // Results that are not the actions' (two signatures) are 400, never a 500.
    const bad = await collector.confirm(e, oe.opt.id, [['0x12'], ['0x34']]);
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'params_validation' });
  });
});
