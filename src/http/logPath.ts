// Request logs say which path was asked for, but a payment id is a bearer capability (the gateway lets
// any wallet act on the payment it names), and so is a buyer link, which gateway paths accept URL-encoded
// in place of the id. Logs are read by more people and kept longer than the database: every path segment
// that is, or encodes, a payment id or a link is replaced before the path is logged. The query string
// (where the hosted pages carry `pid`) is never logged.

const REDACTED_SEGMENT = 'pay_…[redacted]';

// A payment id, a link, or anything still URL-encoded (a link the router would decode into an id).
const CAPABILITY = /pay_|:\/\/|%/i;

/** `segment` URL-decoded (the gateway decodes twice; once more here), or as far as it decodes. */
function decoded(segment: string): string {
  let text = segment;
  for (let i = 0; i < 3 && /%[0-9A-Fa-f]{2}/.test(text); i++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      break;
    }
  }
  return text;
}

/** The path to log: `/v1/gateway/payment/pay_…[redacted]/options`. */
export function loggablePath(path: string): string {
  return path
    .split('/')
    .map((s) => (CAPABILITY.test(s) || CAPABILITY.test(decoded(s)) ? REDACTED_SEGMENT : s))
    .join('/');
}
