import { Resolver } from 'node:dns';
import { isIP } from 'node:net';
import type { WebhookConfig } from '../config';

// Names of webhook hosts are resolved by querying DNS servers directly (c-ares: node:dns Resolver, A and
// AAAA), never with dns.lookup: getaddrinfo runs on libuv's thread pool (4 threads), cannot be cancelled,
// and waits as long as the system resolver does, so a partner's black-holed zone would stall every
// delivery, every registration and the database's new connections with it. Here each resolution has a
// deadline (WEBHOOK_DNS_TIMEOUT_MS) and occupies no thread.
//
// Not consulted: /etc/hosts and nsswitch. `localhost` and `*.localhost` are loopback (RFC 6761) without a
// query; IP literals are themselves.

export type Resolution =
  /** At least one address (IPv4 first). */
  | { kind: 'addresses'; addresses: { address: string; family: 4 | 6 }[] }
  /** The name does not exist, or has no A or AAAA record. */
  | { kind: 'not_found' }
  /** No answer in time, or the servers failed (timeout, SERVFAIL, refused): nothing is known about the name. */
  | { kind: 'unavailable'; reason: string };

export interface WebhookResolver {
  resolve(host: string): Promise<Resolution>;
}

const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'EBADNAME', 'ENONAME']);

function createWebhookResolver(cfg: Pick<WebhookConfig, 'dnsServers' | 'dnsTimeoutMs'>): WebhookResolver {
  // c-ares doubles the timeout on each round of tries: 2 tries of a third of the deadline fit in it. The
  // deadline below holds whatever the servers do.
  const resolver = new Resolver({ timeout: Math.max(50, Math.floor(cfg.dnsTimeoutMs / 3)), tries: 2 });
  if (cfg.dnsServers) resolver.setServers(cfg.dnsServers);

  const query = (family: 4 | 6, host: string) =>
    new Promise<{ addresses: string[] } | { code: string }>((resolve) => {
      const done = (err: NodeJS.ErrnoException | null, addresses: string[]) => resolve(err ? { code: err.code ?? 'EFAIL' } : { addresses });
      if (family === 4) resolver.resolve4(host, done);
      else resolver.resolve6(host, done);
    });

  async function resolve(rawHost: string): Promise<Resolution> {
    const host = rawHost.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const family = isIP(host);
    if (family) return { kind: 'addresses', addresses: [{ address: host, family: family as 4 | 6 }] };
    const bare = host.replace(/\.$/, '');
    if (bare === 'localhost' || bare.endsWith('.localhost')) {
      return {
        kind: 'addresses',
        addresses: [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ],
      };
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), cfg.dnsTimeoutMs);
      timer.unref();
    });
    // c-ares may give up before the deadline (its timeouts adapt to the server's past latency): ask again
    // until the deadline, so "no answer within" always means the whole deadline passed.
    const until = Date.now() + cfg.dnsTimeoutMs;
    const untilDeadline = async (family: 4 | 6) => {
      for (;;) {
        const a = await query(family, host);
        if (!('code' in a) || a.code !== 'ETIMEOUT' || Date.now() >= until) return a;
      }
    };
    const answers = await Promise.race([Promise.all([untilDeadline(4), untilDeadline(6)]), deadline]);
    clearTimeout(timer);
    if (answers === 'timeout') return { kind: 'unavailable', reason: `no answer within ${cfg.dnsTimeoutMs} ms` };
    const [v4, v6] = answers;
    const addresses = [
      ...('addresses' in v4 ? v4.addresses.map((address) => ({ address, family: 4 as const })) : []),
      ...('addresses' in v6 ? v6.addresses.map((address) => ({ address, family: 6 as const })) : []),
    ];
    // One family answered: its addresses are all that a connection may use, and each is checked.
    if (addresses.length) return { kind: 'addresses', addresses };
    const codes = [v4, v6].map((a) => ('code' in a ? a.code : 'ENODATA'));
    if (codes.every((c) => ABSENT.has(c))) return { kind: 'not_found' };
    const code = codes.find((c) => !ABSENT.has(c))!;
    return { kind: 'unavailable', reason: code === 'ETIMEOUT' ? `no answer within ${cfg.dnsTimeoutMs} ms` : code };
  }

  return { resolve };
}

const shared = new WeakMap<object, WebhookResolver>();

/** One resolver per configuration (the service has one). */
export function webhookResolver(cfg: Pick<WebhookConfig, 'dnsServers' | 'dnsTimeoutMs'>): WebhookResolver {
  let r = shared.get(cfg);
  if (!r) shared.set(cfg, (r = createWebhookResolver(cfg)));
  return r;
}
