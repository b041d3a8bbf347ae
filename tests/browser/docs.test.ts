/// <reference lib="dom" />
// Code passed to page.evaluate runs in the browser: DOM types for it.
import fs from 'node:fs';
import path from 'node:path';
import { startTestService, TestService } from '../support/service';
import { Browser, launch, SHOTS } from './browser';

// The rendered reference in a real browser, offline: every operation of the version's bundled spec is on
// the page (by operationId anchor and summary), and nothing errors or reaches for the network.

let svc: TestService;
let browser: Browser;
beforeAll(async () => {
  svc = await startTestService();
  browser = await launch(svc.directUrl);
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
type Op = { operationId: string; summary: string; tags: string[] };
function operations(version: string): Op[] {
  const doc = JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../generated/${version}/openapi.json`), 'utf8'));
  return Object.values(doc.paths as Record<string, Record<string, Op>>).flatMap((item) =>
    METHODS.filter((m) => item[m]).map((m) => item[m]),
  );
}

describe.each(['2026-02-18', '2026-02-19.preview'])('/docs/%s', (version) => {
  // Opening every operation of a reference took over three minutes beside the integration suite on two cores.
  it('renders every operation of the spec, offline, without errors', async () => {
    const page = await browser.page();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto(`${svc.directUrl}/docs/${version}`, { waitUntil: 'load' });
    const body = await page.innerText('body');
    await page.screenshot({ path: `${SHOTS}/docs-${version}.png` });
    const ops = operations(version);
    expect(ops.length).toBeGreaterThan(15);
    // Redoc routes by hash, one tag at a time (a space in a tag becomes a hyphen): open each operation and find its
    // section and summary.
    for (const op of ops) {
      const anchor = `${op.tags[0].toLowerCase().replace(/\s+/g, '-')}/${op.operationId.toLowerCase()}`;
      await page.goto(`${svc.directUrl}/docs/${version}#/${anchor}`);
      const section = page.locator(`[id="${anchor}"]`).first();
      await section.waitFor();
      expect({ op: op.operationId, text: (await section.locator('h2').first().innerText()).split('\n')[0] }).toEqual({
        op: op.operationId,
        text: op.summary,
      });
    }
    await page.screenshot({ path: `${SHOTS}/docs-${version}-operation.png` });
    for (const heading of ['Getting started', 'Payment states', 'Versioning', 'Errors', 'Idempotency']) expect(body).toContain(heading);
    expect(body).toContain('idempotency_in_progress');
    expect(errors.filter((e) => !/favicon|ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
    // Example image URLs in the spec may be tried; never a script or a stylesheet.
    expect(browser.offsite.filter((u) => /\.(m?js|css)(\?|$)/.test(u))).toEqual([]);
    await page.close();
  }, 600_000);
});

it('/docs opens the stable version', async () => {
  const page = await browser.page();
  await page.goto(`${svc.directUrl}/docs`);
  expect(page.url()).toBe(`${svc.directUrl}/docs/2026-02-18`);
  await page.close();
}, 180_000);
