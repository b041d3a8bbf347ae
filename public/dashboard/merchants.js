// Merchants: create, edit, remove; each merchant's crypto settlements (where its share of each asset is sent).
import { api, canWrite } from './api.js';
import { h, field, input, form, table, when, badge, title, notice, button, mono } from './ui.js';

export async function merchantsPage() {
  const list = h('div', { id: 'merchants-list' });
  const msg = notice();
  const detail = h('div', { id: 'merchant-detail' });

  async function load() {
    const { merchants } = await api('GET', '/v1/merchants', { query: { limit: 100 } });
    list.replaceChildren(
      table(
        'Merchants',
        [
          ['Name', (m) => m.name],
          ['Email', (m) => m.email],
          ['Status', (m) => badge(m.status)],
          ['Created', (m) => when(m.createdAt)],
          ['', (m) => button('Open', () => open(m), { class: 'open-merchant', 'aria-label': 'Open ' + m.name })],
        ],
        merchants,
        'No merchants yet.',
      ),
    );
  }

  async function open(m) {
    detail.replaceChildren(await merchantDetail(m, { reload: load, close: () => detail.replaceChildren() }));
    detail.querySelector('h2')?.focus();
  }

  const create = canWrite() ? createForm(async (m) => (await load(), open(m))) : null;
  try {
    await load();
  } catch (e) {
    msg.error(e);
  }
  return h('section', {}, title('Merchants'), msg, create, list, detail);
}

function merchantFields(m = {}) {
  const name = input({ name: 'merchantName', required: true, maxlength: '256', value: m.name || '' });
  const email = input({ name: 'merchantEmail', type: 'email', required: true, value: m.email || '' });
  const icon = input({ name: 'iconUrl', type: 'url', placeholder: 'https://…', value: m.iconUrl || '' });
  return { name, email, icon, fields: [field('Name', name), field('Contact email', email), field('Logo URL (optional)', icon)] };
}

function createForm(created) {
  const f = merchantFields();
  f.name.id = 'merchant-name';
  f.email.id = 'merchant-email';
  const el = form(
    { id: 'merchant-create', class: 'card' },
    [h('h2', {}, 'New merchant'), f.fields, h('button', { type: 'submit', class: 'primary' }, 'Create merchant')],
    async (frm, msg) => {
      const body = { merchantName: f.name.value.trim(), merchantEmail: f.email.value.trim() };
      if (f.icon.value.trim()) body.iconUrl = f.icon.value.trim();
      const r = await api('POST', '/v1/merchants', { body, idempotent: true });
      frm.reset();
      msg.ok('Merchant ' + r.merchant.name + ' created.');
      await created(r.merchant);
    },
  );
  return el;
}

async function merchantDetail(m, { reload, close }) {
  const msg = notice();
  const settlements = h('div', { id: 'settlements' });
  const write = canWrite();

  async function loadSettlements() {
    const r = await api('GET', '/v1/merchants/' + encodeURIComponent(m.id) + '/settlements');
    settlements.replaceChildren(
      table(
        'Settlements of ' + m.name,
        [
          ['Asset', (x) => mono(x.asset)],
          ['Destination', (x) => mono(x.destination)],
          [
            '',
            (x) =>
              write
                ? button(
                    'Remove',
                    async () => {
                      if (!window.confirm('Stop settling this asset to ' + x.destination + '?')) return;
                      await api('DELETE', '/v1/merchants/' + encodeURIComponent(m.id) + '/settlements/crypto/' + encodeURIComponent(x.id));
                      await loadSettlements();
                    },
                    { 'aria-label': 'Remove settlement ' + x.asset },
                    msg,
                  )
                : '',
          ],
        ],
        r.crypto,
        'No settlement yet: payments to this merchant cannot be paid until it has one.',
      ),
    );
  }

  const edit = merchantFields(m);
  edit.name.id = 'edit-merchant-name';
  const editForm = write
    ? form(
        { id: 'merchant-edit', class: 'card' },
        [h('h3', {}, 'Edit'), edit.fields, h('button', { type: 'submit' }, 'Save changes')],
        async (_f, fmsg) => {
          const body = {
            merchantName: edit.name.value.trim(),
            merchantEmail: edit.email.value.trim(),
            iconUrl: edit.icon.value.trim() || null,
          };
          const r = await api('PATCH', '/v1/merchants/' + encodeURIComponent(m.id), { body });
          Object.assign(m, r.merchant);
          fmsg.ok('Saved.');
          await reload();
        },
      )
    : null;

  const asset = input({ id: 'settlement-asset', name: 'asset', required: true, placeholder: 'eip155:8453/erc20:0x8335…' });
  const dest = input({ id: 'settlement-destination', name: 'destination', required: true, placeholder: 'eip155:8453:0x…' });
  const addForm = write
    ? form(
        { id: 'settlement-create', class: 'card' },
        [
          h('h3', {}, 'Add a settlement'),
          field('Asset (CAIP-19)', asset, 'The token, e.g. eip155:8453/erc20:<contract address>.'),
          field('Destination (CAIP-10)', dest, 'The wallet that receives it, e.g. eip155:8453:<address>.'),
          h('button', { type: 'submit' }, 'Add settlement'),
        ],
        async (f, fmsg) => {
          const body = { settlements: [{ asset: asset.value.trim(), destination: dest.value.trim() }] };
          await api('POST', '/v1/merchants/' + encodeURIComponent(m.id) + '/settlements/crypto', { body, idempotent: true });
          f.reset();
          fmsg.ok('Settlement added.');
          await loadSettlements();
        },
      )
    : null;

  const remove = write
    ? button(
        'Remove merchant',
        async () => {
          if (!window.confirm('Remove ' + m.name + '? Its payments stay in the list.')) return;
          await api('DELETE', '/v1/merchants/' + encodeURIComponent(m.id));
          close();
          await reload();
        },
        { class: 'danger', id: 'merchant-remove' },
        msg,
      )
    : null;

  try {
    await loadSettlements();
  } catch (e) {
    msg.error(e);
  }
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'merchant-title' },
    h('h2', { id: 'merchant-title', tabindex: '-1' }, m.name),
    h('p', { class: 'muted' }, mono(m.id)),
    msg,
    h('h3', {}, 'Settlements'),
    settlements,
    addForm,
    editForm,
    remove,
  );
}
