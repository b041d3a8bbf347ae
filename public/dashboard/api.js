// The dashboard's one way to the server: /dashboard/auth/* (the session) and /dashboard/api/* (the partner API as the
// signed-in user's account). The session cookie goes by itself; every request that changes something carries the
// CSRF token the session answers gave. An error answer becomes an ApiError carrying the API's {code, message}.

export const session = { user: null, csrfToken: null, mode: 'live' };

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || 'Request failed (' + status + ').');
    this.status = status;
    this.code = code || 'http_' + status;
  }
}

const listeners = [];
/** Called with no arguments when the server says the session is gone (401 session_required). */
export const onSignedOut = (fn) => listeners.push(fn);

function query(q) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q || {})) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? '?' + s : '';
}

/** A random Idempotency-Key, one per user action. */
export function newKey() {
  if (window.crypto.randomUUID) return window.crypto.randomUUID();
  const b = window.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

async function send(method, url, { body, headers = {}, accept = 'application/json', raw = false } = {}) {
  const h = { Accept: accept, ...headers };
  if (body !== undefined) h['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && session.csrfToken) h['X-CSRF-Token'] = session.csrfToken;
  let r;
  try {
    r = await fetch(url, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  if (!r.ok) {
    let e = {};
    try {
      e = await r.json();
    } catch {
      // not JSON: the status says enough
    }
    const err = new ApiError(r.status, e.code, e.message);
    if (r.status === 401 && e.code === 'session_required' && !url.endsWith('/auth/session')) listeners.forEach((fn) => fn());
    throw err;
  }
  if (raw) return r;
  if (r.status === 204) return null;
  const text = await r.text();
  return text ? JSON.parse(text) : null;
}

/** A /dashboard/auth/<path> call. */
export const auth = (method, path, body) => send(method, '/dashboard/auth/' + path, { body });

/**
 * A partner API call through /dashboard/api: `path` as in docs/api.md (`/v1/payments`), `opts.query` its query,
 * `opts.merchantId` the Merchant-Id header, `opts.idempotent` an Idempotency-Key for a POST.
 */
export function api(method, path, opts = {}) {
  const headers = { ...(opts.headers || {}) };
  if (opts.merchantId) headers['Merchant-Id'] = opts.merchantId;
  if (opts.idempotent) headers['Idempotency-Key'] = newKey();
  return send(method, '/dashboard/api' + path + query(opts.query), { body: opts.body, headers, accept: opts.accept, raw: opts.raw });
}

/** Takes in a login, invite or session answer. */
export function signedIn(a) {
  session.user = a.user;
  session.csrfToken = a.csrfToken;
  session.mode = a.mode || 'live';
}

export function signedOut() {
  session.user = null;
  session.csrfToken = null;
}

export const canWrite = () => !!session.user && session.user.role !== 'viewer';
export const isOwner = () => !!session.user && session.user.role === 'owner';
