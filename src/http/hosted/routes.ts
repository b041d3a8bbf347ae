import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import { perWindow } from '../../config/limits';
import type { ChangeHub } from '../../events/changeHub';
import { AppError } from '../../domain/errors';
import { resolveGatewayPaymentId } from '../../domain/gatewayId';
import { effectiveStatus, isFinal, MAX_POLL_MS, POLL_IN_MS } from '../../domain/payment';
import { gatewayPayment, gatewayPaymentWithMerchant } from '../../usecases/gateway/payments';
import { needsBuyerData } from '../../usecases/gateway/confirmRules';
import { pollStatus } from '../../usecases/payments/payments';
import { collectLinkKnown, submitCollected } from '../../usecases/gateway/hostedCollect';
import { clientAddress } from '../clientAddress';
import type { ConcurrencyCap, SharedRateLimiter } from '../rateLimit';
import { sendJson } from '../render';
import { collectClosedBody, collectFormBody } from './collectPage';
import { sendNotFoundPage, sendPage } from './html';
import { payPageBody, redirectFor, STATUS_TEXT } from './payPage';
import { payWalletRoutes, type PayWalletDeps } from './payWallet';
import type { HostedContract, HostedInput, HostedOperations } from './contract';

// Non-API routes of the hosted buyer pages. No API key: the payment id in the link is the capability,
// and these routes reveal only what the page shows (merchant, amount, status, the checkout redirect), and what a
// wallet on the page needs to pay (its options, a build action's fetch, and confirm: payWallet.ts). The JSON routes
// the pages' scripts call are operations of spec/internal/hosted.yaml, validated as the API's are (contract.ts); the
// HTML pages and the assets are not.

const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

function loadAssets(dir: string): Map<string, { type: string; body: Buffer }> {
  const out = new Map<string, { type: string; body: Buffer }>();
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const type = ASSET_TYPES[path.extname(name)];
    if (type) out.set(name, { type, body: fs.readFileSync(path.join(dir, name)) });
  }
  return out;
}

export interface HostedDeps extends PayWalletDeps {
  root: string;
  hub: ChangeHub;
  limiter: SharedRateLimiter;
  longPolls: ConcurrencyCap;
  /** The hosted pages' internal document (spec/internal/hosted.yaml) and its validator. */
  contract: HostedContract;
}

export function hostedRoutes({ root, config, db, hub, limiter, longPolls, contract, ...wallet }: HostedDeps) {
  const payWallet = payWalletRoutes({ config, db, ...wallet });
  const ipKey = (ctx: Context) => `ip:${clientAddress(ctx, config.limits.trustedProxyHops)}`;
  const assets = loadAssets(path.join(root, 'public', 'hosted'));
  const paymentId = (raw: unknown) => (typeof raw === 'string' ? resolveGatewayPaymentId(raw, config.publicBaseUrl) : null);
  /** The payment id of a JSON route's link; 404 payment_not_found when it is none. */
  const knownId = (raw: unknown): string => {
    const id = paymentId(raw);
    if (!id) throw new AppError('payment_not_found');
    return id;
  };
  const accountsOf = (raw: unknown) =>
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean)
          .slice(0, 20)
      : [];

  /** A page for a payment, or the friendly 404 page when the id is malformed or unknown. */
  async function withPayment(ctx: Context, render: (pw: Awaited<ReturnType<typeof gatewayPaymentWithMerchant>>) => Promise<void>) {
    const id = paymentId(ctx.query.pid);
    if (!id) return sendNotFoundPage(ctx);
    let pw;
    try {
      pw = await gatewayPaymentWithMerchant(db, config.publicBaseUrl, id);
    } catch (e) {
      if (e instanceof AppError && e.code === 'payment_not_found') return sendNotFoundPage(ctx);
      throw e;
    }
    await render(pw);
  }

  async function payPage(ctx: Context) {
    await withPayment(ctx, async ({ payment, merchant }) =>
      sendPage(ctx, {
        title: `Pay ${merchant.name}`,
        script: 'pay.js',
        body: await payPageBody(payment, merchant, `${config.publicBaseUrl}/?pid=${payment.id}`),
      }),
    );
  }

  async function statusJson(ctx: Context, { path, query }: HostedInput<'hostedPayStatus'>) {
    const id = knownId(path.id);
    const wait = Math.min(query.maxPollMs ?? 0, MAX_POLL_MS);
    const release = wait > 0 ? longPolls.acquire(ipKey(ctx), config.limits.longPollsPerIp) : null;
    let payment;
    try {
      ({ payment } = await pollStatus(db, hub, id, () => gatewayPayment(db, config.publicBaseUrl, id), wait));
    } finally {
      release?.();
    }
    const status = effectiveStatus(payment);
    const final = isFinal(status);
    sendJson(
      ctx,
      200,
      JSON.stringify({
        status,
        isFinal: final,
        pollInMs: final ? null : POLL_IN_MS,
        statusText: STATUS_TEXT[status],
        redirectUrl: redirectFor(payment),
      }),
      { 'Cache-Control': 'no-store' },
    );
  }

  async function collectPage(ctx: Context) {
    await withPayment(ctx, async ({ payment, merchant }) => {
      const status = effectiveStatus(payment);
      const token = ctx.query.token;
      const body =
        status !== 'requires_action'
          ? collectClosedBody(`This payment is ${status.replace('_', ' ')}: nothing more is needed.`)
          : !(await needsBuyerData(db, config, payment))
            ? collectClosedBody('This payment needs no details from you.')
            : !(await collectLinkKnown(db, payment.id, token))
              ? collectClosedBody('This link is not complete: open it from your wallet.')
              : collectFormBody(payment, merchant.name, accountsOf(ctx.query.accounts), token as string);
      sendPage(ctx, { title: `Your details for ${merchant.name}`, script: 'collect.js', body });
    });
  }

  async function collectSubmit(ctx: Context, { body }: HostedInput<'hostedCollectSubmit'>) {
    await submitCollected(db, config, knownId(body.pid), { token: body.token, accounts: accountsOf(body.accounts) }, body.data);
    sendJson(ctx, 200, '{"stored":true}', { 'Cache-Control': 'no-store' });
  }

  // Anyone with a link may call these: a limit per client IP, shared by all processes (pages, status, collect).
  const perIp = perWindow(config.limits, config.limits.ipPerSecond);
  const limited = (ctx: Context) => limiter.take(ipKey(ctx), perIp);

  const payOptions = (ctx: Context, { path, body }: HostedInput<'hostedPayOptions'>) =>
    payWallet.options(ctx, knownId(path.id), ipKey(ctx), body.accounts);
  const payFetch = (ctx: Context, { path, body }: HostedInput<'hostedPayFetch'>) => payWallet.fetch(ctx, knownId(path.id), body);
  const payConfirm = (ctx: Context, { path, body }: HostedInput<'hostedPayConfirm'>) =>
    payWallet.confirm(ctx, knownId(path.id), ipKey(ctx), body);
  const operations: HostedOperations = {
    hostedPayStatus: statusJson,
    hostedPayOptions: payOptions,
    hostedPayFetch: payFetch,
    hostedPayConfirm: payConfirm,
    hostedCollectSubmit: collectSubmit,
  };

  /** True when it answered the request (or threw an AppError for it). */
  return async function serveHosted(ctx: Context): Promise<boolean> {
    const get = ctx.method === 'GET' || ctx.method === 'HEAD';
    const pay = /^\/pay\/[^/]{1,600}\/(status|options|fetch|confirm)$/.exec(ctx.path);
    // The JSON routes (spec/internal/hosted.yaml); a method they do not have goes on to the API, as before.
    const json = (pay !== null && (pay[1] === 'status' || ctx.method === 'POST')) || (ctx.path === '/collect' && ctx.method === 'POST');
    const hosted = (ctx.path === '/' && get) || (ctx.path === '/collect' && get) || json;
    if (hosted) await limited(ctx);
    if (json) return contract.serve(ctx, operations);
    if (ctx.path === '/' && get) return payPage(ctx).then(() => true);
    if (ctx.path === '/collect' && get) return collectPage(ctx).then(() => true);
    if (ctx.path.startsWith('/assets/hosted/') && get) {
      const a = assets.get(ctx.path.slice('/assets/hosted/'.length));
      if (!a) throw new AppError('not_found');
      ctx.status = 200;
      ctx.type = a.type;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = a.body;
      return true;
    }
    return false;
  };
}
