import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, BrowserContext, Page } from 'playwright-core';

// Debian's Chromium (make chromium) driven by playwright-core, headless, in a fresh profile. Every request
// that leaves the test service is aborted unless a test routes it: the pages must work without internet.

const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = path.resolve(__dirname, '../../coverage/browser');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** Requests the pages tried to send off the test service (aborted). */
  offsite: string[];
  page(): Promise<Page>;
  close(): Promise<void>;
}

export async function launch(serviceUrl: string): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'paygate-chromium-'));
  fs.mkdirSync(SHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 900, height: 1000 },
  });
  // Beside the integration suite on two cores a page's load took over 30 s (Playwright's default) at times.
  context.setDefaultTimeout(120_000);
  context.setDefaultNavigationTimeout(120_000);
  const offsite: string[] = [];
  const origin = new URL(serviceUrl).origin;
  await context.route(
    (url) => url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:',
    (route) => {
      offsite.push(route.request().url());
      return route.abort('internetdisconnected');
    },
  );
  return {
    context,
    offsite,
    page: () => context.newPage(),
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
