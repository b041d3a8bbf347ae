/// <reference lib="dom" />
// Helpers of tests/browser/dashboard.test.ts: TOTP codes, signing in through the pages, screenshots for docs/dashboard/.
import fs from 'node:fs';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { SHOTS } from './browser';

const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();

/**
 * Where the screenshots go: coverage/browser/dashboard/, so that a test run changes no file of the tree; with
 * DASHBOARD_SHOTS_DIR=docs/dashboard (docs/dashboard.md says how) they refresh the ones docs/dashboard.md shows.
 */
const DOC_SHOTS = path.resolve(process.env.DASHBOARD_SHOTS_DIR ?? path.join(SHOTS, 'dashboard'));

/** The invite link's path on the test service (the link names PUBLIC_BASE_URL, which is not this service). */
export const onService = (serviceUrl: string, inviteUrl: string) => {
  const u = new URL(inviteUrl);
  return `${serviceUrl}${u.pathname}${u.hash}`;
};

/** Accepts the invite at `link` with a password and the first code; returns the TOTP secret it showed. */
export async function acceptInvite(page: Page, link: string, password: string): Promise<string> {
  await page.goto(link);
  await page.waitForSelector('#totp-secret');
  const secret = (await page.innerText('#totp-secret')).trim();
  expect(await page.getAttribute('#otpauth-url', 'href')).toMatch(/^otpauth:\/\/totp\//);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByLabel('6-digit code from the app').fill(code(secret));
  await page.click('#accept-invite');
  await page.waitForSelector('#user-email');
  return secret;
}

export async function signIn(page: Page, serviceUrl: string, email: string, password: string, secret: string) {
  await page.goto(`${serviceUrl}/dashboard/#/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('6-digit code').fill(code(secret));
  await page.click('#sign-in');
  await page.waitForSelector('#user-email');
  expect(await page.innerText('#user-email')).toBe(email);
}

export async function signOut(page: Page) {
  await page.click('#sign-out');
  await page.waitForSelector('#sign-in-form');
}

/** Opens a section of the dashboard and waits for its heading. */
export async function open(page: Page, hash: string, heading: string) {
  const same = await page.evaluate((h) => {
    if (location.hash === h) return true;
    location.hash = h;
    return false;
  }, hash);
  if (same) await page.reload(); // the page as it is now, not as it was drawn

  await page.waitForFunction((t) => document.querySelector('main h1')?.textContent === t, heading);
}

/** A phone-width and a desktop-width screenshot of the page as it is, each kept small (docs/dashboard/<name>-*.png). */
export async function shots(page: Page, name: string) {
  fs.mkdirSync(DOC_SHOTS, { recursive: true });
  for (const [kind, width, height] of [
    ['phone', 390, 844],
    ['desktop', 1280, 860],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    const file = path.join(DOC_SHOTS, `${name}-${kind}.png`);
    await page.screenshot({ path: file, fullPage: kind === 'phone' && name !== 'payments' });
    if (fs.statSync(file).size > 200_000) await page.screenshot({ path: file }); // long page: the first screen only
  }
  await page.setViewportSize({ width: 900, height: 1000 });
}
