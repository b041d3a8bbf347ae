import { createWalletClient, getAddress, http, parseEventLogs, parseAbi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { authorizationCall } from '../../src/chain/evm';
import { devnetChain } from '../../src/chain/devnet';
import { MULTICALL3_ADDRESS } from '../../src/domain/multicall3';
import { anvil, balanceOf, chainClient, newBuyer, receiptOf, rpcUrl, USDC_TOKEN } from '../support/chain';
import { eventually } from '../support/chainSuite';
import { merchantWithSettlement } from '../support/fixtures';
import { startRpcProxy } from '../support/rpcProxy';
import { adminWith, client, newKey, setAccountMode, startTestService, type TestService } from '../support/service';
import { signedBody, x402PayTo } from '../support/x402';

// x402 in collector mode pays the account's own deposit address (docs/x402.md "Whose payTo"): a payload is bound to
// the account whose address it signs, no other account can settle it, and the deposit address passes what it is paid
// on to the collector in the same transaction (an all-or-none Multicall3 call), or alone when a third party sent the
// buyer's authorization by itself. Own service: `admin ledger check` and the RPC proxy are this service's.

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const TRANSFER = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
let svc: TestService;
let rpc: Awaited<ReturnType<typeof startRpcProxy>>;
let collectors: string[];

async function partner(name: string) {
  const m = await merchantWithSettlement(svc, name);
  const x402 = client(svc.directUrl, { 'Api-Key': m.apiKey });
  return { ...m, x402, payTo: getAddress((await x402PayTo(x402))!), extra: { name: 'USD Coin', version: '2', merchantId: m.merchantId } };
}

/** The token transfers a transaction made, as (from, to, value). */
async function transfersOf(hash: string) {
  const logs = parseEventLogs({ abi: TRANSFER, logs: (await receiptOf(hash)).logs });
  return logs.map((l) => [getAddress(l.args.from), getAddress(l.args.to), l.args.value]);
}

beforeAll(async () => {
  rpc = await startRpcProxy(process.env.DEVNET_RPC_URL!);
  svc = await startTestService({ DEVNET_RPC_URL: rpc.url });
  collectors = (await client(svc.directUrl)('GET', '/x402/supported')).body.signers['eip155:*'].map((a: string) => getAddress(a));
}, 60_000);
afterAll(async () => {
  await svc.close();
  await rpc?.close();
});
jest.setTimeout(90_000);

it("account settings name the x402 payTo: an address of the account's own per mode, null in direct mode", async () => {
  const a = await partner('Deposit A');
  expect(collectors).not.toContain(a.payTo);
  expect(getAddress((await x402PayTo(a.x402))!)).toBe(a.payTo); // the same address every time
  const test = client(svc.directUrl, { 'Api-Key': (await newKey(a.accountId, 'partner', undefined, 'test')).apiKey });
  const testPayTo = await x402PayTo(test);
  expect(testPayTo).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(getAddress(testPayTo!)).not.toBe(a.payTo);
  const b = await partner('Deposit B');
  expect(b.payTo).not.toBe(a.payTo);
  const d = await merchantWithSettlement(svc, 'Deposit direct');
  await setAccountMode(d.accountId, 'direct');
  const settings = await client(svc.directUrl, { 'Api-Key': d.apiKey, ...PREVIEW })('GET', '/v1/account/settings');
  expect(settings.status).toBe(200);
  expect(settings.body.settings.x402).toEqual({ payTo: null });
});

it("a payload paid to one account's deposit address cannot be settled by another; the shared collector is refused", async () => {
  const a = await partner('Bound A');
  const b = await partner('Bound B');
  const buyer = await newBuyer(10_000n);
  // B names its own merchant, and then A's: A's deposit address is no payTo of B's, either way.
  for (const merchantId of [b.merchantId, a.merchantId]) {
    const body = await signedBody(buyer, { payTo: a.payTo, amount: '10000', extra: { ...b.extra, merchantId } });
    for (const op of ['verify', 'settle']) {
      const r = await b.x402('POST', `/x402/${op}`, { body });
      expect({ op, status: r.status, code: r.body.code }).toEqual({ op, status: 403, code: 'forbidden' });
    }
  }
  // The collector every account shares, which collector mode paid before: refused, pointing to the account's address.
  const shared = await signedBody(buyer, { payTo: collectors[0], amount: '10000', extra: a.extra });
  const r = await a.x402('POST', '/x402/settle', { body: shared });
  expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'forbidden' });
  expect(r.body.message).toMatch(/GET \/v1\/account\/settings/);
  expect(await balanceOf(buyer.address)).toBe(10_000n);
  expect(await svc.db('payments').whereIn('merchant_id', [a.merchantId, b.merchantId])).toEqual([]);
});

it('settled: one transaction takes the tokens from the buyer to the deposit address and on to the collector', async () => {
  const a = await partner('Onward');
  const buyer = await newBuyer(20_000n);
  const settled = await a.x402('POST', '/x402/settle', {
    body: await signedBody(buyer, { payTo: a.payTo, amount: '20000', extra: a.extra }),
  });
  expect(settled.body).toMatchObject({ success: true, amount: '20000', payer: buyer.address });
  const hash = settled.body.transaction as Hex;
  const tx = await chainClient().getTransaction({ hash });
  expect(getAddress(tx.to!)).toBe(MULTICALL3_ADDRESS);
  const collector = getAddress(tx.from);
  expect(collectors).toContain(collector);
  expect(await transfersOf(hash)).toEqual([
    [buyer.address, a.payTo, 20_000n],
    [a.payTo, collector, 20_000n],
  ]);
  expect([await balanceOf(buyer.address), await balanceOf(a.payTo)]).toEqual([0n, 0n]);
  await eventually(async () => expect(await balanceOf(a.wallet)).toBe(20_000n)); // settled to the merchant (no fee set)
  const check = await adminWith({}, 'ledger', 'check', '--wait', '10');
  expect(check.out.differences.filter((x: { holder: string }) => getAddress(x.holder) === collector)).toEqual([]);
});

it("a third party sends the buyer's authorization alone: the deposit address's own transfer follows, paid once", async () => {
  const a = await partner('Front-run');
  const buyer = await newBuyer(10_000n);
  const body = await signedBody(buyer, { payTo: a.payTo, amount: '10000', extra: a.extra });
  rpc.refuse('eth_sendRawTransaction');
  const pending = await a.x402('POST', '/x402/settle?maxPollMs=1000', { body });
  expect(pending.body).toMatchObject({ success: false, errorReason: 'settlement_pending' });
  const id = pending.body.paymentId as string;

  // Seen in transit, the buyer's authorization is sent by someone else, straight to the chain: it pays the deposit
  // address, and only that account's relayer holds the deposit address's onward signature.
  const stranger = privateKeyToAccount(generatePrivateKey());
  await anvil().setBalance({ address: stranger.address, value: 10n ** 18n });
  const a9n = body.paymentPayload.payload.authorization;
  const call = authorizationCall(
    { primaryType: 'TransferWithAuthorization', domain: { verifyingContract: USDC_TOKEN }, message: a9n } as never,
    body.paymentPayload.payload.signature as Hex,
  );
  const wallet = createWalletClient({ chain: devnetChain(rpcUrl()), transport: http(rpcUrl()), account: stranger });
  const frontRun = await wallet.sendTransaction({ to: call.to, data: call.data } as never);
  // Its receipt once mined (a node under load indexes it a moment after it answers the send).
  expect((await chainClient().waitForTransactionReceipt({ hash: frontRun, pollingInterval: 50 })).status).toBe('success');
  expect(await balanceOf(a.payTo)).toBe(10_000n);

  rpc.up();
  const done = await a.x402('GET', `/x402/settlements/${id}?maxPollMs=25000`);
  expect(done.body).toMatchObject({ success: true, paymentId: id });
  expect(done.body.transaction).not.toBe(frontRun);
  const collector = getAddress((await chainClient().getTransaction({ hash: done.body.transaction })).from);
  expect(await transfersOf(done.body.transaction)).toEqual([[a.payTo, collector, 10_000n]]);
  expect([await balanceOf(buyer.address), await balanceOf(a.payTo)]).toEqual([0n, 0n]);
  await eventually(async () => expect(await balanceOf(a.wallet)).toBe(10_000n));
  expect(await svc.db('ledger_journals').where({ payment_id: id, kind: 'collected' })).toHaveLength(1);
  const check = await adminWith({}, 'ledger', 'check', '--wait', '10');
  expect(check.out.differences.filter((x: { holder: string }) => getAddress(x.holder) === collector)).toEqual([]);
});
