/// <reference lib="dom" />
// The partner dashboard (public/dashboard/, docs/dashboard.md) in a real browser against the real service: an owner
// invited by the operator signs in with a password and TOTP, sees a payment paid on the development chain, refunds it
// (the buyer's tokens come back), manages merchants, settlements, keys and webhooks, exports the CSV; a viewer
// has no refund button and the server refuses the viewer's refund too.
import fs from 'node:fs';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { Page } from 'playwright-core';
import { admin, client, newKey, startTestService, TestService } from '../support/service';
import { merchantWithSettlement, uniqueKey } from '../support/fixtures';
import { balanceOf, DEVNET_USDC, newBuyer, newWallet, receiptOf } from '../support/chain';
import { eventually } from '../support/eventually';
import { startReceiver, type Receiver } from '../support/webhookReceiver';
import { Browser, launch } from './browser';
import { acceptInvite, onService, open, shots, signIn, signOut } from './dashboardSupport';

// On chain and with refunds followed to the end: longer than the browser suite's 60 s.
jest.setTimeout(180_000);

const PREVIEW = { 'PAY-Version': '2026-02-19.preview' };
const OWNER = `owner-${process.pid}-${Date.now()}@example.com`;
const VIEWER = `viewer-${process.pid}-${Date.now()}@example.com`;
const PASSWORD = 'correct horse battery staple';

let svc: TestService;
let browser: Browser;
let page: Page;
let m: Awaited<ReturnType<typeof merchantWithSettlement>>;
let receiver: Receiver;
let buyer: PrivateKeyAccount;
let ownerSecret: string;
/** The payment paid on the chain, and its reference. */
let paid: { id: string; ref: string };

beforeAll(async () => {
  svc = await startTestService();
  browser = await launch(svc.directUrl);
  receiver = await startReceiver();
  m = await merchantWithSettlement(svc, 'Dashboard <i>Shop</i>');
  // All of each payment is held at the collector for refunds (the refund reserve): the refund is sent at once.
  const reserve = await m.api('PUT', '/v1/account/settings', {
    headers: PREVIEW,
    body: { refundReserve: { bps: 10000, windowMinutes: 1440 } },
  });
  if (reserve.status !== 200) throw new Error(reserve.text);
  buyer = await newBuyer(20_000_000n); // USDC 20.00
  page = await browser.page();
  page.on('dialog', (d) => d.accept());
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await svc?.close();
});

/** A preview payment of `value` (USD minor units), paid by `buyer` through the gateway and succeeded. */
async function payOnChain(value: string) {
  const ref = uniqueKey('order');
  const r = await m.asMerchant('POST', '/v1/payments', {
    headers: PREVIEW,
    body: { referenceId: ref, amount: { unit: 'iso4217/USD', value } },
  });
  if (r.status !== 201) throw new Error(r.text);
  const id = r.body.paymentId as string;
  const gw = client(svc.url, { 'Api-Key': (await newKey(m.accountId, 'wallet')).apiKey });
  const o = await gw('POST', `/v1/gateway/payment/${id}/options`, { body: { accounts: [`eip155:31337:${buyer.address}`] } });
  const opt = o.body.options[0];
  const sig = await buyer.signTypedData(JSON.parse(opt.actions[0].data.params[1]));
  const c = await gw('POST', `/v1/gateway/payment/${id}/confirm`, {
    body: { optionId: opt.id, results: [{ type: 'walletRpc', data: [sig] }] },
  });
  if (c.status !== 200) throw new Error(c.text);
  await eventually(
    () => m.asMerchant('GET', `/v1/payments/${id}`, { headers: PREVIEW }),
    (x) => x.body.status === 'succeeded',
    30_000,
    250,
  );
  return { id, ref };
}

describe('the partner dashboard', () => {
  it('serves the page with a strict CSP and its assets', async () => {
    const r = await fetch(`${svc.directUrl}/dashboard/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect((await fetch(`${svc.directUrl}/assets/dashboard/app.js`)).headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${svc.directUrl}/assets/dashboard/nothing.js`)).status).toBe(404);
  });

  it('the operator invites the first owner, who adds TOTP, then signs out and in with password and code', async () => {
    const inv = await admin('dashboard', 'invite', '--account', m.accountId, '--email', OWNER);
    expect(inv.inviteUrl).toMatch(/\/dashboard\/#\/invite\//);
    const link = onService(svc.directUrl, inv.inviteUrl);
    await page.goto(link);
    await page.waitForSelector('#totp-secret');
    await shots(page, 'invite');
    ownerSecret = await acceptInvite(page, link, PASSWORD);
    expect(await page.innerText('#user-role')).toBe('owner');
    await signOut(page);
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill('wrong password!!');
    await page.click('#sign-in');
    await page.waitForSelector('#sign-in-form .notice.error');
    expect(await page.innerText('#sign-in-form .notice.error')).not.toBe('');
    await shots(page, 'sign-in');
    await signIn(page, svc.directUrl, OWNER, PASSWORD, ownerSecret);
    expect(await page.innerText('#account-name')).toBeTruthy();
  });

  it('adds a webhook endpoint; its secret is shown once, and rotates', async () => {
    await open(page, '#/webhooks', 'Webhook endpoints');
    await page.getByLabel('URL (https)').fill(receiver.url);
    await page.click('#webhook-create button[type=submit]');
    await page.waitForSelector('#webhook-secret-value');
    const first = await page.innerText('#webhook-secret-value');
    expect(first.length).toBeGreaterThan(10);
    await page.click('.rotate-secret');
    await page.waitForFunction((s) => document.getElementById('webhook-secret-value')?.textContent !== s, first);
    await shots(page, 'webhooks');
  });

  it('shows a payment paid on the development chain with its transaction hash, and the chart', async () => {
    paid = await payOnChain('1250'); // USD 12.50
    expect(await balanceOf(buyer.address)).toBe(7_500_000n);
    const api = await m.asMerchant('GET', `/v1/payments/${paid.id}`, { headers: PREVIEW });
    const txId = api.body.info.txId as string;
    expect((await receiptOf(txId)).status).toBe('success');
    await open(page, '#/payments', 'Payments');
    await page.getByLabel('Reference').fill(paid.ref);
    await page.click('.filters button[type=submit]');
    await page.waitForSelector(`.payment-link:has-text("${paid.ref}")`);
    expect(await page.locator('.payment-link').count()).toBe(1);
    await page.getByLabel('Reference').fill('');
    await page.click('.filters button[type=submit]');
    await page.waitForSelector('#chart svg');
    expect(await page.getAttribute('#chart figure', 'data-asset')).toBe('USDC');
    await shots(page, 'payments');
    await page.click(`.payment-link:has-text("${paid.ref}")`);
    await page.waitForSelector('#payment-tx');
    expect(await page.innerText('#payment-tx')).toBe(txId);
    expect(await page.innerText('#payment-amount')).toBe('$12.50');
    expect(await page.getAttribute('#payment-status', 'data-status')).toBe('succeeded');
    expect(await page.innerText('#payment-option')).toContain('12.5 USDC');
    await page.waitForSelector('#timeline li[data-type="payment.succeeded"]');
  });

  it('refunds the payment after a confirmation; the buyer gets the tokens back', async () => {
    await page.click('#refund-button');
    await page.waitForSelector('#refund-confirm:not([hidden])');
    await shots(page, 'payment');
    await page.click('#refund-confirm-button');
    await page.waitForSelector('#refund-result.ok');
    await page.waitForSelector('.refund-status[data-status="succeeded"]', { timeout: 60_000 });
    expect(await page.locator('.refund-tx').first().innerText()).toMatch(/^0x[0-9a-f]{64}$/);
    await eventually(
      () => balanceOf(buyer.address),
      (b) => b === 20_000_000n,
      30_000,
      250,
    );
    expect(await page.locator('#refund-button').count()).toBe(0); // nothing left to refund
  });

  it('redelivers a webhook event from the deliveries page', async () => {
    const hasEvent = (type: string) => (all: typeof receiver.received) => all.filter((r) => r.body?.type === type).length;
    await receiver.until((all) => hasEvent('payment.succeeded')(all) >= 1, 30_000);
    await open(page, '#/deliveries', 'Deliveries');
    await page.getByLabel('Event type').selectOption('payment.succeeded');
    await page.waitForSelector('.open-event');
    await page.locator('.open-event').first().click();
    await page.waitForSelector('#redeliver');
    await page.click('#redeliver');
    await page.waitForSelector('#event-detail .notice.ok');
    await receiver.until((all) => hasEvent('payment.succeeded')(all) >= 2, 30_000);
    await shots(page, 'deliveries');
  });

  it('creates a merchant and a settlement for it', async () => {
    await open(page, '#/merchants', 'Merchants');
    const name = uniqueKey('Corner Store');
    await page.fill('#merchant-name', name);
    await page.fill('#merchant-email', 'corner@example.com');
    await page.click('#merchant-create button[type=submit]');
    await page.waitForFunction((n) => document.getElementById('merchant-title')?.textContent === n, name);
    const dest = `eip155:31337:${newWallet()}`;
    await page.getByLabel('Asset (CAIP-19)').fill(DEVNET_USDC);
    await page.getByLabel('Destination (CAIP-10)').fill(dest);
    await page.click('#settlement-create button[type=submit]');
    await page.waitForSelector(`#settlements code:has-text("${dest}")`);
    const list = await m.api('GET', '/v1/merchants', { headers: PREVIEW });
    const made = list.body.merchants.find((x: { name: string }) => x.name === name);
    const st = await m.api('GET', `/v1/merchants/${made.id}/settlements`);
    expect(st.body.crypto).toEqual([expect.objectContaining({ asset: DEVNET_USDC, destination: dest })]);
    await shots(page, 'merchants');
  });

  it('creates an API key (shown once), rotates and revokes it: each old secret then gets 401', async () => {
    await open(page, '#/keys', 'API keys');
    const name = uniqueKey('checkout');
    await page.getByLabel('Name').fill(name);
    await page.click('#key-create button[type=submit]');
    await page.waitForSelector('#key-secret-value');
    const secret = (await page.innerText('#key-secret-value')).trim();
    const withKey = client(svc.url, { 'Api-Key': secret });
    expect((await withKey('GET', '/v1/merchants')).status).toBe(200);
    await shots(page, 'keys');
    // Rotated: a new secret with the same access works, the old one gets 401.
    await page.click(`.rotate-key[aria-label="Rotate ${name}"]`);
    await page.waitForFunction((old) => document.querySelector('#key-secret-value')?.textContent?.trim() !== old, secret);
    const rotated = client(svc.url, { 'Api-Key': (await page.innerText('#key-secret-value')).trim() });
    expect((await rotated('GET', '/v1/merchants')).status).toBe(200);
    const refused = (api: typeof withKey) =>
      eventually(
        () => api('GET', '/v1/merchants'),
        (r) => r.status === 401,
        10_000,
        100,
      );
    await refused(withKey);
    await page.click(`.revoke-key[aria-label="Revoke ${name}"]`);
    await page.waitForFunction(() => document.querySelectorAll('#keys-list .badge-revoked').length >= 2);
    await refused(rotated);
  });

  it('shows the balance and exports the balance transactions as CSV; switches to test data and back', async () => {
    await open(page, '#/balance', 'Balance');
    await page.waitForSelector('#balances');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#tx-export')]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toMatch(/type/);
    expect(csv).toContain(paid.id);
    expect(download.suggestedFilename()).toMatch(/^balance-transactions-.*\.csv$/);
    await shots(page, 'balance');
    await page.click('#mode-switch');
    await page.waitForSelector('#test-banner');
    await page.waitForSelector('main h1:has-text("Balance")');
    await page.click('#mode-switch');
    await page.waitForSelector('#mode-switch.mode-live');
  });

  it('an owner invites a viewer, who sees no refund button; the server refuses the viewer’s refund', async () => {
    const second = await payOnChain('500');
    await open(page, '#/people', 'People');
    await page.getByLabel('Email').fill(VIEWER);
    await page.getByLabel('Role').selectOption('viewer');
    await page.click('#invite-create button[type=submit]');
    await page.waitForSelector('#invite-url');
    const link = onService(svc.directUrl, await page.innerText('#invite-url'));
    await shots(page, 'people');
    await signOut(page);
    await acceptInvite(page, link, PASSWORD);
    expect(await page.innerText('#user-role')).toBe('viewer');
    await open(page, `#/payments/${second.id}`, 'Payment');
    await page.waitForSelector('#payment-tx');
    expect(await page.locator('#refund-button').count()).toBe(0);
    expect(await page.locator('#merchant-create').count()).toBe(0);
    const refused = await page.evaluate(
      async ({ id, merchantId }) => {
        const s = await (await fetch('/dashboard/auth/session')).json();
        const r = await fetch('/dashboard/api/v1/refunds', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': s.csrfToken, 'Merchant-Id': merchantId, 'Idempotency-Key': id },
          body: JSON.stringify({ paymentId: id }),
        });
        return { status: r.status, body: await r.json() };
      },
      { id: second.id, merchantId: m.merchantId },
    );
    expect(refused).toMatchObject({ status: 403, body: { code: 'key_restricted' } });
    expect(browser.offsite).toEqual([]);
  });
});
