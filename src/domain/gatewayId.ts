// A gateway `{id}` is a payment id, or this service's own buyer link URL-encoded
// (`<PUBLIC_BASE_URL>/?pid=pay_…`), which existing wallet SDKs pass through unchanged. Returns the
// payment id, or null when the text is neither (a link to another host is not ours to follow).

const PAYMENT_ID = /^pay_[A-Za-z0-9_-]{1,64}$/;

export function resolveGatewayPaymentId(raw: string, publicBaseUrl: string): string | null {
  let text = raw;
  for (let i = 0; i < 2 && /%[0-9A-Fa-f]{2}/.test(text); i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return null;
    }
  }
  if (PAYMENT_ID.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.origin !== new URL(publicBaseUrl).origin) return null;
  const pid = url.searchParams.get('pid');
  return pid && PAYMENT_ID.test(pid) ? pid : null;
}

/** How logs name a payment: `pay_` and 8 of its 22 random characters (about 84 bits stay unknown), for `LIKE 'pay_xxxxxxxx%'`. */
export const loggablePaymentId = (id: string): string => `${id.slice(0, 12)}…`;
