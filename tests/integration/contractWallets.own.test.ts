import { getAddress, pad, type Address, type Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { anvil, chainClient, fund, newBuyer, newWallet, USDC_TOKEN, useOwnChain } from '../support/chain';
import { eventually } from '../support/eventually';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { useOwnDatabase } from '../support/freshDb';
import { startRpcProxy, type RpcCall } from '../support/rpcProxy';
import { client, newKey, startTestService, type TestService } from '../support/service';
import { newSmartWallet } from '../support/smartWallet';
import { signedBody, x402PayTo } from '../support/x402';

// Smart-contract wallets that make the relayer pay for reverts (issue 28, finding 4): confirm verified the wallet's
// ERC-1271 answer and simulated the transfer at gas price 0, so a wallet that answers "valid" only when tx.gasprice is 0
// passed confirm and reverted on chain, at the relayer's expense, as often as it liked. Confirm must ask as the chain
// will (the fees the submission offers, the pending block, a gas limit), refuse confirms once too many of a buyer's or
// an account's submissions reverted, and let an operator turn contract wallets off or allow-list them.
//
// The wallet is 34 bytes of hand-written runtime code, put at a fresh address (the buyer's) with anvil_setCode.
// Whatever it is called with, isValidSignature included, it returns ERC-1271's "valid" word (0x1626ba7e, left-aligned)
// when tx.gasprice is 0 or its storage slot 0 is 0, and a zero word otherwise:
//   00 GASPRICE ISZERO PUSH1 0x11 JUMPI             valid when tx.gasprice == 0
//   05 PUSH1 0 SLOAD ISZERO PUSH1 0x11 JUMPI        valid when slot 0 == 0
//   0c PUSH1 32 PUSH1 0 RETURN                      invalid: a zero word
//   11 JUMPDEST PUSH4 0x1626ba7e PUSH1 224 SHL PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
// With slot 0 at 1 it is the gas-price trick. With slot 0 at 0 it is valid until the test sets slot 0, after confirm
// and before the block: a submission that reverts on chain.
const WALLET_CODE: Hex = '0x3a156011576000541560115760206000f35b631626ba7e60e01b60005260206000f3';
/** Any bytes: the wallet ignores them (the bytes form of the token's call carries them). */
const SIGNATURE: Hex = `0x${'ab'.repeat(80)}`;

// Automine off and storage written under the service's feet: a chain and a database of this file's own.
useOwnChain();
useOwnDatabase('paygate_wallets');
jest.setTimeout(120_000);

/** A contract wallet holding 10 USDC (minted while blocks are mined), its slot 0 as given. */
async function contractWallet(slot0: 0 | 1): Promise<Address> {
  const address = newWallet();
  await anvil().setCode({ address, bytecode: WALLET_CODE });
  await setSlot0(address, slot0);
  await fund(address, 10_000_000n);
  return address;
}
const setSlot0 = (address: Address, v: 0 | 1) => anvil().setStorageAt({ address, index: 0, value: pad(v === 1 ? '0x01' : '0x00') });

function shopFlow(svc: TestService, shop: Awaited<ReturnType<typeof merchantWithSettlement>>, walletKey: string) {
  const gw = client(svc.url, { 'Api-Key': walletKey });
  return {
    /** A USD 10.00 payment and the option offered to `buyer`. */
    option: async (buyer: Address) => {
      const p = await shop.asMerchant('POST', '/v1/payments', {
        body: { referenceId: uniqueKey('cw'), amount: { unit: 'iso4217/USD', value: '1000' } },
      });
      const o = await gw('POST', `/v1/gateway/payment/${p.body.paymentId}/options`, { body: { accounts: [`eip155:31337:${buyer}`] } });
      if (o.status !== 200 || !o.body.options?.length) throw new Error(o.text);
      return { id: p.body.paymentId as string, opt: o.body.options[0], td: JSON.parse(o.body.options[0].actions[0].data.params[1]) };
    },
    confirm: (id: string, optionId: string, sig: string = SIGNATURE) =>
      gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId, results: [{ type: 'walletRpc', data: [sig] }] } }),
  };
}

/**
 * With automine off: confirmed while the contract wallet says valid; it says invalid before the block, so the
 * submission reverts and the payment fails.
 */
async function revertedConfirm(svc: TestService, f: ReturnType<typeof shopFlow>, wallet: Address) {
  await revertedSubmission(svc, wallet, async () => {
    const { id, opt } = await f.option(wallet);
    expect((await f.confirm(id, opt.id)).body.status).toBe('processing');
    return id;
  });
}

/** As revertedConfirm, for the payment that `submit` makes processing while the wallet says valid. */
async function revertedSubmission(svc: TestService, wallet: Address, submit: () => Promise<string>) {
  const txsOf = (paymentId: string) => svc.db('chain_transactions').where({ payment_id: paymentId });
  await setSlot0(wallet, 0);
  const id = await submit();
  await eventually(
    () => txsOf(id),
    (t) => Boolean(t[0]?.broadcast_at),
    15_000,
  );
  await setSlot0(wallet, 1);
  await anvil().mine({ blocks: 1 });
  const done = await eventually(
    () => svc.db('payments').where({ id }).first(),
    (p) => p.status === 'failed',
    15_000,
  );
  // The wallet caused it (the token neither paused nor refusing a party): the payer's, counted in the budget.
  const [tx] = await txsOf(id);
  expect([done.status, tx.status, tx.revert_cause]).toEqual(['failed', 'reverted', 'payer']);
}

async function shopOn(svc: TestService, name: string) {
  const shop = await merchantWithSettlement(svc, name);
  return shopFlow(svc, shop, (await newKey(shop.accountId, 'wallet')).apiKey);
}

describe('contract wallets at confirm', () => {
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let svc: TestService;
  beforeAll(async () => {
    proxy = await startRpcProxy(process.env.DEVNET_RPC_URL!);
    svc = await startTestService({ DEVNET_RPC_URL: proxy.url, REVERT_BUDGET_PER_BUYER: '2', REVERT_BUDGET_PER_ACCOUNT: '3' });
  });
  afterAll(async () => {
    await anvil().setAutomine(true);
    await svc?.close();
    await proxy?.close();
  });
  const txsOf = (paymentId: string) => svc.db('chain_transactions').where({ payment_id: paymentId });
  const statusOf = async (paymentId: string) => (await svc.db('payments').where({ id: paymentId }).first()).status;

  it('a wallet whose ERC-1271 answer depends on tx.gasprice is refused: every check asks as the chain will', async () => {
    const f = await shopOn(svc, 'Gas Price Trick');
    const wallet = await contractWallet(1);
    const { id, opt, td } = await f.option(wallet);
    const relayer = getAddress(td.message.to);
    const nonce = await chainClient().getTransactionCount({ address: relayer });
    const calls: RpcCall[] = [];
    proxy.watch((c) => calls.push(c));
    const r = await f.confirm(id, opt.id);
    proxy.watch(null);
    expect({ status: r.status, code: r.body.code }).toEqual({ status: 422, code: 'invalid_signature' });
    await new Promise((res) => setTimeout(res, 1000)); // nothing queued: nothing is sent
    expect([await statusOf(id), await txsOf(id)]).toEqual(['requires_action', []]);
    expect(await chainClient().getTransactionCount({ address: relayer })).toBe(nonce);
    // The wallet's check and the transfer's simulation: a gas limit, the fees the submission offers, the pending block.
    const asked = calls.filter(
      (c) => ['eth_call', 'eth_estimateGas'].includes(c.method) && [wallet, USDC_TOKEN].includes(getAddress(c.params![0].to)),
    );
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.map((c) => [c.method, Boolean(c.params![0].gas), Boolean(c.params![0].maxFeePerGas), c.params![1]])).toEqual(
      asked.map((c) => [c.method, true, true, 'pending']),
    );
  });

  it("reverted submissions are budgeted per buyer address: then its confirms are 429 too_many_reverts, not the account's", async () => {
    const f = await shopOn(svc, 'Reverts');
    const [w1, w2, w3] = [await contractWallet(0), await contractWallet(0), await contractWallet(0)];
    await anvil().setAutomine(false);
    try {
      const revertOnce = (wallet: Address) => revertedConfirm(svc, f, wallet);
      /** Refused although the wallet says valid: nothing moves; Retry-After is when the oldest revert is a day old. */
      const refused = async (wallet: Address) => {
        await setSlot0(wallet, 0);
        const { id, opt } = await f.option(wallet);
        const r = await f.confirm(id, opt.id);
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 429, code: 'too_many_reverts' });
        expect([await statusOf(id), await txsOf(id)]).toEqual(['requires_action', []]);
        return Number(r.headers.get('retry-after'));
      };
      await revertOnce(w1);
      await revertOnce(w1);
      const retryAfter = await refused(w1); // the buyer's third
      expect(retryAfter).toBeGreaterThan(86_000);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      await revertOnce(w2);
      // Three reverts of the account's payments, but of two buyers, each answering for its own (revertBlame.own.test.ts):
      // a fresh buyer of the same account is not held back.
      const { id, opt } = await f.option(w3);
      expect((await f.confirm(id, opt.id)).body.status).toBe('processing');
      await anvil().mine({ blocks: 1 });
      await eventually(
        () => statusOf(id),
        (s) => s === 'succeeded',
        15_000,
      );
    } finally {
      await anvil().setAutomine(true);
    }
  });

  it('x402: reverted settlements answer their transaction and use up the wallet budget; then verify and settle refuse', async () => {
    const shop = await merchantWithSettlement(svc, 'x402 Reverts');
    const x402 = client(svc.directUrl, { 'Api-Key': shop.apiKey });
    const wallet = await contractWallet(0);
    const signer = { address: wallet, signTypedData: async () => SIGNATURE } as unknown as PrivateKeyAccount;
    const terms = {
      payTo: (await x402PayTo(x402))!,
      amount: '10000',
      extra: { name: 'USD Coin', version: '2', merchantId: shop.merchantId },
    };
    const reverted: string[] = [];
    await anvil().setAutomine(false);
    try {
      for (const _ of [1, 2])
        await revertedSubmission(svc, wallet, async () => {
          const r = await x402('POST', '/x402/settle?maxPollMs=0', { body: await signedBody(signer, terms) });
          expect(r.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
          reverted.push(r.body.paymentId);
          return r.body.paymentId;
        });
      // A settlement whose transfer reverted answers as x402's facilitator does for a failed receipt: the transaction
      // that reverted, and why (the wallet's signature no longer holds).
      const [tx] = await svc.db('chain_transactions').where({ payment_id: reverted[0] });
      expect((await x402('GET', `/x402/settlements/${reverted[0]}`)).body).toMatchObject({
        success: false,
        errorReason: 'invalid_exact_evm_signature',
        transaction: tx.tx_hash,
        paymentId: reverted[0],
      });
      await setSlot0(wallet, 0); // valid again: only the budget refuses now
      const body = await signedBody(signer, terms);
      const verified = await x402('POST', '/x402/verify', { body });
      expect(verified.body).toMatchObject({ isValid: false, invalidReason: 'invalid_transaction_state', payer: wallet });
      const settled = await x402('POST', '/x402/settle', { body });
      expect({ status: settled.status, ...settled.body }).toMatchObject({
        status: 200,
        success: false,
        errorReason: 'invalid_transaction_state',
        errorMessage: expect.stringMatching(/^too_many_reverts: .*buyer address/),
        payer: wallet,
      });
      expect(await svc.db('payments').where({ merchant_id: shop.merchantId }).pluck('status')).toEqual(['failed', 'failed']);
    } finally {
      await anvil().setAutomine(true);
    }
  });

  it('CONTRACT_WALLETS=off refuses contract-wallet signatures (ERC-1271, ERC-6492); allowlist accepts only the listed wallets', async () => {
    const [listed, unlisted] = [await contractWallet(0), await contractWallet(0)];
    const off = await startTestService({ CONTRACT_WALLETS: 'off' });
    const allow = await startTestService({ CONTRACT_WALLETS: 'allowlist', CONTRACT_WALLETS_ALLOWLIST: listed.toLowerCase() });
    try {
      const fOff = await shopOn(off, 'Wallets Off');
      const a = await fOff.option(listed);
      const r = await fOff.confirm(a.id, a.opt.id);
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 422, code: 'contract_wallet_not_accepted' });
      // A wallet not deployed yet (ERC-6492) is a contract wallet too.
      const cf = newSmartWallet();
      await fund(cf.address, 10_000_000n);
      const c = await fOff.option(cf.address);
      const rc = await fOff.confirm(c.id, c.opt.id, await cf.signTypedData(c.td));
      expect({ status: rc.status, code: rc.body.code }).toEqual({ status: 422, code: 'contract_wallet_not_accepted' });
      const eoa = await newBuyer(10_000_000n); // an EOA's signature is not a contract wallet's
      const e = await fOff.option(eoa.address);
      expect((await fOff.confirm(e.id, e.opt.id, await eoa.signTypedData(e.td))).body.status).toBe('processing');

      const fAllow = await shopOn(allow, 'Wallets Allow-listed');
      const u = await fAllow.option(unlisted);
      const ru = await fAllow.confirm(u.id, u.opt.id);
      expect({ status: ru.status, code: ru.body.code }).toEqual({ status: 422, code: 'contract_wallet_not_accepted' });
      const l = await fAllow.option(listed);
      expect((await fAllow.confirm(l.id, l.opt.id)).body.status).toBe('processing');
      await eventually(
        () => allow.db('payments').where({ id: l.id }).first(),
        (p) => p.status === 'succeeded',
        15_000,
      );
    } finally {
      await off.close();
      await allow.close();
    }
  });
});

describe('the budget of reverts per credential', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ REVERT_BUDGET_PER_BUYER: '5', REVERT_BUDGET_PER_CREDENTIAL: '3', REVERT_BUDGET_PER_ACCOUNT: '100' });
  });
  afterAll(async () => {
    await anvil().setAutomine(true);
    await svc?.close();
  });

  it("counts the credential's reverts on any account's payments, and then its submissions in flight", async () => {
    const [shop, elsewhere] = [await merchantWithSettlement(svc, 'Credential A'), await merchantWithSettlement(svc, 'Credential B')];
    // A partner key is one party's: its reverts are its own (a wallet key's are its users', revertBudget.ts). One key
    // confirms payments of two accounts (the gateway is not scoped to an account).
    const key = (await newKey(shop.accountId, 'partner')).apiKey;
    const [f, g] = [shopFlow(svc, shop, key), shopFlow(svc, elsewhere, key)];
    const [w1, w2] = [await contractWallet(0), await contractWallet(0)];
    const buyers = await Promise.all(Array.from({ length: 3 }, () => newBuyer(10_000_000n)));
    await anvil().setAutomine(false);
    try {
      await revertedConfirm(svc, f, w1);
      await revertedConfirm(svc, g, w2); // 2 of its 3: one more may be in flight
      const pending = await Promise.all(
        buyers.map(async (b) => {
          const o = await f.option(b.address);
          return { ...o, sig: await b.signTypedData(o.td) };
        }),
      );
      const rs = await Promise.all(pending.map((p) => f.confirm(p.id, p.opt.id, p.sig)));
      expect(rs.map((r) => `${r.status} ${r.body.status ?? r.body.code}`).sort()).toEqual([
        '200 processing',
        '429 too_many_reverts',
        '429 too_many_reverts',
      ]);
      expect(rs.find((r) => r.status === 429)!.body.message).toMatch(/credential/);
      // Another key of the same account has a budget of its own.
      const other = shopFlow(svc, shop, (await newKey(shop.accountId, 'partner')).apiKey);
      const i = rs.findIndex((r) => r.status === 429);
      const again = await other.option(buyers[i].address);
      expect((await other.confirm(again.id, again.opt.id, await buyers[i].signTypedData(again.td))).body.status).toBe('processing');
    } finally {
      await anvil().setAutomine(true);
    }
  });
});
