import ipaddr from 'ipaddr.js';

// Webhook URLs are chosen by partners, so the service must not be steered into its own network (SSRF):
// only public unicast addresses are reachable unless the operator allows private ones (loopback, RFC 1918,
// unique-local). Link-local (cloud metadata at 169.254.169.254) and IPv4-compatible IPv6 (::a.b.c.d, which
// tunnels can route to IPv4 loopback) are never allowed. The check runs at registration and again on every
// connection (DNS may change in between).

/** Why the address may not be used, or null when it is a public unicast address. */
export function forbiddenAddressReason(address: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 is judged as IPv4
  const range = parsed.range();
  if (range === 'unicast') {
    // ipaddr.js calls ::/96 (other than :: and ::1) unicast.
    const v4compatible = parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0);
    return v4compatible ? `${address} is an IPv4-compatible IPv6 address (::/96)` : null;
  }
  const privateRanges = ['loopback', 'private', 'uniqueLocal'];
  if (allowPrivate && privateRanges.includes(range)) return null;
  return `${address} is a ${range} address`;
}

export interface WebhookUrlCheck {
  url: URL | null;
  problem: string | null;
}

/** Syntax rules of a webhook URL (the spec's pattern plus what only a URL parser can tell). */
export function parseWebhookUrl(raw: string): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { url: null, problem: 'is not a valid URL' };
  }
  if (url.protocol !== 'https:') return { url: null, problem: 'must use https' };
  if (url.username || url.password) return { url: null, problem: 'must not carry credentials' };
  if (url.hash) return { url: null, problem: 'must not have a fragment' };
  if (!url.hostname) return { url: null, problem: 'must name a host' };
  return { url, problem: null };
}

/** A bracketed IPv6 host as the URL API gives it, unbracketed. */
export const bareHost = (hostname: string): string => hostname.replace(/^\[(.*)\]$/, '$1');
