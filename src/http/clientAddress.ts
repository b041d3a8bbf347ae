import { isIP } from 'node:net';
import type { Context } from 'koa';

// Who a client is, for the limits per IP address (the hosted pages' rate limit and long-poll cap). A client
// writes what it likes into X-Forwarded-For, and each proxy on the way appends the address it was connected
// from: only the entries the trusted proxies appended can be believed, counted from the right. Behind
// TRUSTED_PROXY_HOPS = N proxies, the outermost one appended the client's address as the N-th entry from the
// right (the leftmost, when there are fewer: the request met fewer proxies). With none (the default) the
// header is ignored and the socket's peer is the client. An entry that is not an IP address (node:net isIP;
// at most 45 characters, which also refuses IPv6 zone ids) is not believed either: the socket address
// stands in, so a limiter key is never text of the client's choosing (tests/integration/clientAddress.test.ts).

/** The longest IP address text: ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255. */
const MAX_ADDRESS_CHARS = 45;

export function clientAddress(ctx: Context, trustedProxyHops: number): string {
  const socket = ctx.req.socket.remoteAddress ?? 'unknown';
  const forwarded = trustedProxyHops > 0 ? ctx.get('x-forwarded-for') : '';
  if (!forwarded) return socket;
  const entries = forwarded.split(',');
  const entry = entries[Math.max(0, entries.length - trustedProxyHops)].trim();
  return entry.length <= MAX_ADDRESS_CHARS && isIP(entry) ? entry : socket;
}
