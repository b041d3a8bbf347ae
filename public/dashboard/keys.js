// API keys: create (a name, read-only, limited to some merchants, an expiry; the secret is shown once), the list with
// when each was last used, rotate (a new key with the same access, then the old one revoked), revoke. And the account's audit log.
import { api, canWrite } from './api.js';
import { h, field, input, form, table, when, title, notice, button, mono, secretBox } from './ui.js';

export async function keysPage() {
  const msg = notice();
  const secret = h('div', { id: 'key-secret' });
  const list = h('div', { id: 'keys-list' });
  const audit = h('div', { id: 'audit' });
  const write = canWrite();
  let merchants = [];
  try {
    merchants = (await api('GET', '/v1/merchants', { query: { limit: 100 } })).merchants;
  } catch {
    // the key form then offers no merchant restriction
  }

  async function load() {
    const { data } = await api('GET', '/v1/api-keys');
    list.replaceChildren(
      table(
        'API keys',
        [
          ['Name', (k) => k.name],
          [
            'Access',
            (k) =>
              (k.readOnly ? 'read only' : 'read and write') + (k.merchantIds?.length ? ', ' + k.merchantIds.length + ' merchant(s)' : ''),
          ],
          ['Created', (k) => when(k.createdAt)],
          ['Last used', (k) => (k.lastUsedAt ? when(k.lastUsedAt) : 'never')],
          ['Expires', (k) => (k.expiresAt ? when(k.expiresAt) : 'never')],
          [
            '',
            (k) =>
              k.revokedAt
                ? h('span', { class: 'badge badge-revoked' }, 'revoked ' + when(k.revokedAt))
                : write
                  ? h('span', { class: 'actions' }, rotateButton(k), ' ', revokeButton(k))
                  : '',
          ],
        ],
        data.filter((k) => k.type !== 'wallet' || !k.revokedAt),
        'No keys yet.',
      ),
    );
  }

  /** A new key with the same name and access, its secret shown once; then this one is revoked. */
  const rotateButton = (k) =>
    button(
      'Rotate',
      async () => {
        if (!window.confirm('Rotate the key “' + k.name + '”? A new key with the same access replaces it; this one is revoked.')) return;
        const body = { name: k.name, readOnly: k.readOnly };
        if (k.type === 'wallet') body.type = 'wallet';
        if (k.merchantIds?.length) body.merchantIds = k.merchantIds;
        if (k.expiresAt) body.expiresAt = k.expiresAt;
        const r = await api('POST', '/v1/api-keys', { body, idempotent: true });
        await api('DELETE', '/v1/api-keys/' + encodeURIComponent(k.id));
        secret.replaceChildren(
          secretBox(
            'The new key “' + r.apiKey.name + '”; the old one is revoked. It is shown only now: copy it to your server.',
            r.secret,
            'key-secret-value',
          ),
        );
        secret.querySelector('button')?.focus();
        await load();
      },
      { class: 'rotate-key', 'aria-label': 'Rotate ' + k.name },
      msg,
    );

  const revokeButton = (k) =>
    button(
      'Revoke',
      async () => {
        if (!window.confirm('Revoke the key “' + k.name + '”? Requests with it fail from now on.')) return;
        await api('DELETE', '/v1/api-keys/' + encodeURIComponent(k.id));
        msg.ok('Key “' + k.name + '” revoked.');
        await load();
      },
      { class: 'danger revoke-key', 'aria-label': 'Revoke ' + k.name },
      msg,
    );

  let create = null;
  if (write) {
    const name = input({ id: 'key-name', required: true, maxlength: '200', placeholder: 'Checkout server' });
    const readOnly = h('input', { type: 'checkbox', id: 'key-readonly' });
    const expires = input({ id: 'key-expires', type: 'date' });
    const pick = h(
      'select',
      { id: 'key-merchants', multiple: true, size: String(Math.min(4, Math.max(2, merchants.length))) },
      merchants.map((m) => h('option', { value: m.id }, m.name)),
    );
    create = form(
      { id: 'key-create', class: 'card' },
      [
        h('h2', {}, 'New key'),
        field('Name', name),
        h('div', { class: 'check' }, readOnly, h('label', { for: 'key-readonly' }, 'Read only')),
        merchants.length ? field('Only these merchants (optional)', pick, 'None selected: every merchant.') : null,
        field('Expires on (optional)', expires),
        h('button', { type: 'submit', class: 'primary' }, 'Create key'),
      ],
      async (f) => {
        const body = { name: name.value.trim(), readOnly: readOnly.checked };
        const ids = [...pick.selectedOptions].map((o) => o.value);
        if (ids.length) body.merchantIds = ids;
        if (expires.value) body.expiresAt = expires.value + 'T00:00:00Z';
        const r = await api('POST', '/v1/api-keys', { body, idempotent: true });
        f.reset();
        secret.replaceChildren(
          secretBox('The key “' + r.apiKey.name + '”. It is shown only now: copy it to your server.', r.secret, 'key-secret-value'),
        );
        secret.querySelector('button')?.focus();
        await load();
      },
    );
  }

  try {
    await load();
    const a = await api('GET', '/v1/audit-events', { query: { limit: 20 } });
    audit.replaceChildren(
      table(
        'Audit log',
        [
          ['When', (x) => when(x.createdAt)],
          ['Action', (x) => x.action],
          ['By', (x) => describe(x.actor)],
          ['On', (x) => describe(x.target)],
        ],
        a.data,
        'Nothing recorded yet.',
      ),
    );
  } catch (e) {
    msg.error(e);
  }
  return h('section', {}, title('API keys'), msg, secret, create, list, h('h2', {}, 'Audit log'), audit);
}

function describe(x) {
  if (!x) return '—';
  if (typeof x !== 'object') return String(x);
  return mono([x.type, x.name || x.email || x.id].filter(Boolean).join(' '));
}
