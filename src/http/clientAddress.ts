import { isIP } from 'node:net';
import type { Context } from 'koa';

// Who a client is, for the limits per IP address (the hosted pages' rate limit and long-poll cap). A client
// writes what it likes into X-Forwarded-For, and each proxy on the way appends the address it was connected
// from: only the entries the trusted proxies appended can be believed, counted from the right. Behind
// TRUSTED_PROXY_HOPS = N proxies, the outermost one appended the client's address as the N-th entry from the
// right (the leftmost, when there are fewer: the request met fewer proxies). With none (the default) the
// header is ignored and the socket's peer is the client. An entry that is not an IP address (node:net isIP;
// at most 45 characters, which also refuses IPv6 zone ids) is not believed either: the socket address
// stands in, so a limiter key is never text of the client's choosing (tests/integration/clientAddress.own.test.ts).

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

/**
 * The network a limit per address counts a client in: an IPv4 address (also one written IPv4-mapped, ::ffff:a.b.c.d)
 * stands alone, an IPv6 address counts with its /64, the block one subscriber is given, and can take any
 * address of (so that changing addresses within it does not start a new count). Anything else stands as it is.
 */
export function addressNetwork(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff];
    return v4.join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a :: filled with zeros, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
