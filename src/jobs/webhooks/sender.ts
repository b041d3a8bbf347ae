import type { LookupAddress } from 'node:dns';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import type { WebhookConfig } from '../../config';
import { bareHost, forbiddenAddressReason } from '../../domain/webhookAddress';
import { webhookResolver } from '../../lib/resolver';

// One HTTP attempt of a webhook delivery. The destination is checked on every connection (the egress
// allowlist, then each resolved address against private networks, inside the socket's own DNS lookup so a
// host cannot be re-pointed between check and connect). Names are resolved with a deadline and off the
// thread pool (resolver.ts). Redirects are not followed; only a 2xx within the timeout counts. The
// receiver's body is drained, never stored. Errors recorded for the partner never show a resolved address.

export interface SendResult {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/** Errors recorded as they are (their message is the attempt's error). */
class Refused extends Error {}
class TimedOut extends Error {}
class DnsFailed extends Error {}

export function createWebhookSender(cfg: WebhookConfig) {
  const resolver = webhookResolver(cfg);
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    resolver.resolve(hostname).then(
      (r) => {
        if (r.kind === 'not_found') return callback(new DnsFailed(`dns: ${hostname} not found`), '', 0);
        if (r.kind === 'unavailable') return callback(new DnsFailed(`dns: ${hostname} did not resolve (${r.reason})`), '', 0);
        for (const a of r.addresses) {
          // Which address, and what kind of network, is the operator's business: the partner reads this error.
          if (forbiddenAddressReason(a.address, cfg.allowPrivateNetworks))
            return callback(new Refused(`refused: ${hostname} resolves to a non-public address`), '', 0);
        }
        const list = options.family === 4 || options.family === 6 ? r.addresses.filter((a) => a.family === options.family) : r.addresses;
        if (!list.length) return callback(new DnsFailed(`dns: ${hostname} has no IPv${options.family} address`), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        callback(null, list[0].address, list[0].family);
      },
      (e: Error) => callback(e, '', 0),
    );
  };
  const agent = new https.Agent({
    keepAlive: true,
    // The in-flight caps bound the sockets: no queue here (one host may serve many partners' endpoints).
    maxSockets: cfg.maxInFlight,
    lookup: guardedLookup,
    // An extra CA goes in one secure context built here, not as `ca`: https.Agent keys its pools by a name that
    // concatenates `ca` (every root certificate) on each request and socket release, which cost more CPU than
    // the request itself; a secure context is not part of the name, and is built once instead of per connection.
    secureContext: cfg.caPem ? tls.createSecureContext({ ca: [...tls.rootCertificates, cfg.caPem] }) : undefined,
  });

  function preflight(url: URL): string | null {
    const host = bareHost(url.hostname).toLowerCase();
    if (url.protocol !== 'https:') return 'refused: not an https URL';
    if (cfg.allowedHosts && !cfg.allowedHosts.includes(host)) return `refused: ${host} is not in WEBHOOK_ALLOWED_HOSTS`;
    if (isIP(host)) {
      const reason = forbiddenAddressReason(host, cfg.allowPrivateNetworks);
      if (reason) return `refused: ${reason}`;
    }
    return null;
  }

  async function send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = Date.now();
    const done = (status: number | null, error: string | null): SendResult => ({ status, error, durationMs: Date.now() - started });
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return done(null, 'refused: invalid URL');
    }
    const refused = preflight(url);
    if (refused) return done(null, refused);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = https.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'paygate-webhooks/1',
          },
        },
        (res) => {
          res.on('data', () => undefined); // drain: keep-alive needs the body consumed
          res.on('end', () => {
            const status = res.statusCode ?? null;
            const ok = status !== null && status >= 200 && status < 300;
            finish(
              done(
                status,
                ok
                  ? null
                  : status !== null && status >= 300 && status < 400
                    ? `HTTP ${status} (redirects are not followed)`
                    : `HTTP ${status}`,
              ),
            );
          });
          res.on('error', (e) => finish(done(res.statusCode ?? null, e.message)));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new TimedOut(`timeout after ${cfg.timeoutMs} ms`));
      }, cfg.timeoutMs);
      req.on('error', (e) =>
        finish(
          done(
            null,
            e instanceof Refused || e instanceof TimedOut || e instanceof DnsFailed
              ? e.message
              : `${(e as NodeJS.ErrnoException).code ?? 'error'}: ${e.message}`.slice(0, 500),
          ),
        ),
      );
      req.end(body);
    });
  }

  return { send, close: () => agent.destroy() };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
