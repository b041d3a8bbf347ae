/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser: DOM types for it.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Page } from 'playwright-core';
import { admin, client, newKey, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { balanceOf, chainClient, newBuyer } from '../support/chain';
import { newUsdtBuyer, USDT } from '../support/permit2';
import { ethAsset, ethShop, newEthBuyer } from '../support/native';
import { devnetRouterAddress } from '../../src/chain/nativeRouter';
import { getAddress } from 'viem';
import { Browser, launch, SHOTS } from './browser';
import { injectWallet } from './eip1193';

// The hosted buyer pages in a real browser: what the buyer sees, the QR code, the live status and the
// checkout redirect; paying with a browser wallet (an injected EIP-1193 provider); the data-collection form refusing
// bad input (in the browser and at the server).

const SHOP = 'https://shop.example';

let svc: TestService;
let browser: Browser;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
let gw: ReturnType<typeof client>;
/** The wallet's buyer, funded on the development chain: its payments move real tokens. */
let buyer: PrivateKeyAccount;
let BUYER_ACCOUNT: string;

beforeAll(async () => {
  svc = await startTestService();
  buyer = await newBuyer(2_000_000_000n); // USDC 2,000.00: two payments of USD 600 on the data-collection page
  BUYER_ACCOUNT = `eip155:31337:${buyer.address}`;
  browser = await launch(svc.directUrl);
  m = await merchantWithSettlement(svc, 'Blue <b>Bottle</b> Coffee');
  gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey });
  await admin('accounts', 'set-threshold', '--account', m.accountId, '--minor', '50000'); // USD 500.00
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
});

/** A preview payment with checkout URLs; returns its id and buyer link. */
async function newPayment(value: string, checkout = true) {
  const r = await m.asMerchant('POST', '/v1/payments', {
    headers: { 'PAY-Version': '2026-02-19.preview' },
    body: {
      referenceId: uniqueKey('order'),
      amount: { unit: 'iso4217/USD', value },
      ...(checkout ? { checkout: { successUrl: `${SHOP}/thanks?o=1`, errorUrl: `${SHOP}/sorry?o=1` } } : {}),
    },
  });
  if (r.status !== 201) throw new Error(r.text);
  return { id: r.body.paymentId as string, link: r.body.gatewayUrl as string };
}

/** A page whose navigations to the shop land on a stub (the test machine has no internet). */
async function shopPage(): Promise<Page> {
  const page = await browser.page();
  await page.route(`${SHOP}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<h1>shop</h1>' }));
  return page;
}

const options = async (id: string) => {
  const o = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [BUYER_ACCOUNT] } });
  if (o.status !== 200) throw new Error(o.text);
  return o.body;
};
async function pay(id: string) {
  const opt = (await options(id)).options[0];
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  return gw('POST', `/v1/gateway/payment/${id}/confirm`, { body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] } });
}

describe('the gatewayUrl page', () => {
  it('shows merchant and amount; its QR code decodes to the link', async () => {
    const { id, link } = await newPayment('123456');
    const page = await shopPage();
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    expect(await page.innerText('#merchant-name')).toBe('Blue <b>Bottle</b> Coffee');
    expect(await page.innerText('#amount')).toBe('$1,234.56');
    expect(await page.innerText('#status')).toBe('Waiting for payment');
    await page.screenshot({ path: `${SHOTS}/pay-page.png`, fullPage: true });
    const png = PNG.sync.read(await page.locator('#qr svg').screenshot());
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(qr?.data).toBe(link);
    expect(link).toBe(`https://pay.example.com/?pid=${id}`);
    await page.close();
  });

  it('updates live when the merchant cancels, then redirects to the checkout error URL', async () => {
    const { id } = await newPayment('1000');
    const page = await shopPage();
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await page.waitForTimeout(300); // the page is now long-polling
    expect((await m.asMerchant('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    await page.waitForFunction(() => document.getElementById('status')!.dataset.status === 'cancelled', undefined, { timeout: 5000 });
    expect(await page.innerText('#status')).toContain('This payment was cancelled.');
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true); // no reload
    await page.screenshot({ path: `${SHOTS}/pay-page-cancelled.png` });
    await page.waitForURL(`${SHOP}/sorry?o=1`, { timeout: 5000 });
    await page.close();
  });

  it('follows a wallet payment to succeeded and redirects to the checkout success URL', async () => {
    const { id } = await newPayment('2500');
    const page = await shopPage();
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.waitForTimeout(300);
    expect((await pay(id)).status).toBe(200);
    await page.waitForFunction(() => document.getElementById('status')!.dataset.status === 'succeeded', undefined, { timeout: 10_000 });
    await page.waitForURL(`${SHOP}/thanks?o=1`, { timeout: 5000 });
    await page.close();
  });

  it('without checkout URLs a final payment stays on the page; an unknown pid is a friendly 404 page', async () => {
    const { id } = await newPayment('1000', false);
    await m.asMerchant('POST', `/v1/payments/${id}/cancel`);
    const page = await browser.page();
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.waitForTimeout(2000);
    expect(page.url()).toBe(`${svc.directUrl}/?pid=${id}`);
    expect(await page.innerText('#status')).toBe('This payment was cancelled.');
    const r = await page.goto(`${svc.directUrl}/?pid=pay_nothing_here`);
    expect(r!.status()).toBe(404);
    expect(await page.innerText('h1')).toBe('Payment not found');
    await page.screenshot({ path: `${SHOTS}/not-found.png` });
    await page.close();
  });
});

describe('paying on the page with a browser wallet (EIP-1193)', () => {
  /** A merchant settling USDC and USDT: the wallet's buyer gets an option in each. */
  let shop: Awaited<ReturnType<typeof merchantWithSettlement>>;
  beforeAll(async () => {
    shop = await merchantWithSettlement(svc, 'Wallet Page Shop');
    const r = await shop.api('POST', `/v1/merchants/${shop.merchantId}/settlements/crypto`, {
      body: { settlements: [{ asset: USDT, destination: `eip155:31337:${shop.wallet}` }] },
      headers: { 'Idempotency-Key': uniqueKey() },
    });
    if (r.status !== 201) throw new Error(r.text);
  });

  /** Opens the page with the wallet, connects, and pays with the option in `symbol`; the wallet's requests. */
  async function payOnPage(wallet: PrivateKeyAccount, symbol: 'USDC' | 'USDT') {
    const r = await shop.asMerchant('POST', '/v1/payments', {
      body: { referenceId: uniqueKey('page'), amount: { unit: 'iso4217/USD', value: '1250' } },
    });
    const id = r.body.paymentId as string;
    const page = await browser.page();
    const asked = await injectWallet(page, wallet);
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.click('#pay-wallet');
    await page.waitForSelector('#wallet-options button');
    expect((await page.locator('#wallet-options button').allInnerTexts()).sort()).toEqual(['Pay 12.50 USDC', 'Pay 12.50 USDT']);
    await page.click(`#wallet-options button:has-text("${symbol}")`);
    await page.waitForFunction(() => document.getElementById('status')!.dataset.status === 'succeeded', undefined, { timeout: 30_000 });
    expect(await page.innerText('#status')).toBe('Paid. Thank you!');
    await page.screenshot({ path: `${SHOTS}/pay-wallet-${symbol}.png`, fullPage: true });
    await page.close();
    const stored = await svc.db('payments').where({ id }).first();
    return { asked: asked.map((a) => a.method).filter((m) => m !== 'eth_getTransactionReceipt'), stored };
  }

  it('USDT: the page runs the approve, waits for it, signs the permit and confirms; the tokens move', async () => {
    const wallet = await newUsdtBuyer(20_000_000n);
    const { asked, stored } = await payOnPage(wallet, 'USDT');
    expect(asked).toEqual(['eth_requestAccounts', 'eth_chainId', 'eth_sendTransaction', 'eth_signTypedData_v4']);
    expect([stored.status, stored.token_asset, stored.token_amount]).toEqual(['succeeded', USDT, '12500000']);
    expect(stored.caller_info).toMatchObject({ keyType: 'page', keyId: expect.stringMatching(/^page_[0-9a-f]{24}$/) });
    expect(await balanceOf(wallet.address, 'USDT')).toBe(7_500_000n);
  });

  it('USDC: one signature; a page without a wallet offers no wallet payment', async () => {
    const wallet = await newBuyer(15_000_000n);
    const { asked, stored } = await payOnPage(wallet, 'USDC');
    expect(asked).toEqual(['eth_requestAccounts', 'eth_chainId', 'eth_signTypedData_v4']);
    expect(stored.status).toBe('succeeded');
    expect(await balanceOf(wallet.address)).toBe(2_500_000n);
    const { id } = await newPayment('1000', false);
    const page = await browser.page();
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    expect(await page.isHidden('#wallet')).toBe(true);
    await page.close();
  });
});

describe('paying on the page in ETH with a browser wallet (direct mode)', () => {
  let shop: Awaited<ReturnType<typeof ethShop>>;
  beforeAll(async () => {
    shop = await ethShop(svc, 'Wallet Page ETH Shop', 'direct');
  });

  it('fetches the build action, the wallet sends the router transaction unchanged, confirm takes its hash; the ETH moves', async () => {
    const wallet = await newEthBuyer();
    const id = await shop.pay('1250');
    const page = await browser.page();
    const asked = await injectWallet(page, wallet);
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.click('#pay-wallet');
    await page.waitForSelector(`#wallet-options button[data-unit="caip19/${ethAsset()}"]`);
    expect(await page.locator('#wallet-options button').allInnerTexts()).toContainEqual(expect.stringMatching(/^Pay 0\.\d+ ETH$/));
    const merchantBefore = await chainClient().getBalance({ address: getAddress(shop.wallet) });
    await page.click(`#wallet-options button[data-unit="caip19/${ethAsset()}"]`);
    await page.waitForFunction(() => document.getElementById('status')!.dataset.status === 'succeeded', undefined, { timeout: 30_000 });
    expect(await page.innerText('#status')).toBe('Paid. Thank you!');
    await page.screenshot({ path: `${SHOTS}/pay-wallet-ETH.png`, fullPage: true });
    await page.close();
    expect(asked.map((a) => a.method).filter((x) => x !== 'eth_getTransactionReceipt')).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'eth_chainId', // the wallet still on the option's chain, checked before the coin is sent
      'eth_sendTransaction',
    ]);
    const tx = asked.find((a) => a.method === 'eth_sendTransaction')!.params[0] as { from: string; to: string; value: string };
    expect(tx).toMatchObject({ from: wallet.address, to: devnetRouterAddress });
    const stored = await svc.db('payments').where({ id }).first();
    expect([stored.status, stored.token_asset]).toEqual(['succeeded', ethAsset()]);
    expect(stored.caller_info).toMatchObject({ keyType: 'page' });
    expect((await chainClient().getBalance({ address: getAddress(shop.wallet) })) - merchantBefore).toBe(BigInt(tx.value));
  });

  it('a wallet switched to another network after the options is told so; nothing is sent', async () => {
    const wallet = await newEthBuyer();
    const id = await shop.pay('300');
    const page = await browser.page();
    const asked = await injectWallet(page, wallet);
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.click('#pay-wallet');
    const eth = `#wallet-options button[data-unit="caip19/${ethAsset()}"]`;
    await page.waitForSelector(eth);
    await page.evaluate(() => {
      const provider = (window as unknown as { ethereum: { request: (a: { method: string }) => Promise<unknown> } }).ethereum;
      const request = provider.request;
      provider.request = (a) => (a.method === 'eth_chainId' ? Promise.resolve('0x7a6a') : request(a)); // 31338
    });
    await page.click(eth);
    await page.waitForFunction(() => /another network/.test(document.getElementById('wallet-note')!.textContent ?? ''));
    expect(await page.innerText('#wallet-note')).toBe('Your wallet is on another network: switch it to chain 31337, then pay again.');
    await page.close();
    expect(asked.map((a) => a.method)).toEqual(['eth_requestAccounts', 'eth_chainId']);
    expect((await svc.db('payments').where({ id }).first()).status).toBe('requires_action');
  });
});

describe('the data-collection page', () => {
  async function openForm() {
    const { id } = await newPayment('60000');
    const url = new URL((await options(id)).collectData.url);
    const page = await browser.page();
    const posts: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/collect') && r.request().method() === 'POST') posts.push(r.status());
    });
    await page.goto(`${svc.directUrl}${url.pathname}${url.search}`);
    return { id, page, posts };
  }
  const fill = async (page: Page, v: Record<string, string>) => {
    for (const [k, val] of Object.entries(v)) await page.fill(`#f-${k}`, val);
  };

  it('refuses invalid input in the browser before sending anything', async () => {
    const { page, posts } = await openForm();
    await page.screenshot({ path: `${SHOTS}/collect-form.png`, fullPage: true });
    await page.click('button[type=submit]');
    expect(await page.$eval('#f-fullName', (e) => (e as HTMLInputElement).validity.valueMissing)).toBe(true);
    await fill(page, { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'gb', porAddress: 'London' });
    await page.check('#f-tosConfirmed');
    await page.click('button[type=submit]');
    expect(await page.$eval('#f-porCountry', (e) => (e as HTMLInputElement).validity.patternMismatch)).toBe(true);
    await fill(page, { porCountry: '', porAddress: '' });
    await page.click('button[type=submit]');
    expect(await page.$eval('#f-pobCountry', (e) => (e as HTMLInputElement).validationMessage)).toMatch(/place of birth/);
    await page.waitForTimeout(200);
    expect(posts).toEqual([]);
    await page.close();
  });

  it("shows the server's refusal when the browser checks are bypassed", async () => {
    const { page, posts } = await openForm();
    await page.evaluate(() => {
      (document.getElementById('collect') as HTMLFormElement).noValidate = true;
    });
    await fill(page, { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'gb', porAddress: 'London' }); // tos unticked
    await page.click('button[type=submit]');
    await page.waitForSelector('#errors:not([hidden])');
    const text = await page.innerText('#errors');
    expect(text).toContain('Country of residence: must match pattern');
    expect(text).toContain('I accept the terms of service');
    expect(posts).toEqual([400]);
    await page.screenshot({ path: `${SHOTS}/collect-server-errors.png`, fullPage: true });
    await page.close();
  });

  it('accepts valid input, and the wallet then confirms without sending the data', async () => {
    const { id, page, posts } = await openForm();
    await fill(page, { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London' });
    await page.check('#f-tosConfirmed');
    await page.click('button[type=submit]');
    await page.waitForSelector('#done:not([hidden])');
    expect(posts).toEqual([200]);
    await page.screenshot({ path: `${SHOTS}/collect-done.png` });
    const c = await pay(id);
    expect({ status: c.status, payment: c.body.status }).toEqual({ status: 200, payment: 'processing' });
    await page.close();
  });

  it("on the pay page with a browser wallet: the form's link comes first, then the wallet pays without sending data", async () => {
    const { id } = await newPayment('60000', false);
    const page = await browser.page();
    await injectWallet(page, buyer);
    await page.goto(`${svc.directUrl}/?pid=${id}`);
    await page.click('#pay-wallet');
    const href = await page.getAttribute('#wallet-details', 'href');
    const url = new URL(href!);
    expect(url.pathname).toBe('/collect');
    const form = await browser.page();
    await form.goto(`${svc.directUrl}${url.pathname}${url.search}`);
    await fill(form, { fullName: 'Ada Lovelace', dob: '1815-12-10', porCountry: 'GB', porAddress: '12 St James Sq, London' });
    await form.check('#f-tosConfirmed');
    await form.click('button[type=submit]');
    await form.waitForSelector('#done:not([hidden])');
    await form.close();
    await page.click('#wallet-options button:has-text("USDC")');
    await page.waitForFunction(() => document.getElementById('status')!.dataset.status === 'succeeded', undefined, { timeout: 30_000 });
    const option = await svc
      .db('payment_options')
      .where({ id: (await svc.db('payments').where({ id }).first()).option_id })
      .first();
    expect(option.collected_data).not.toBeNull();
    await page.close();
  });
});
