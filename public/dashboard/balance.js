// The balance per asset, the balance transactions (ledger movements) of a date range, and their CSV export.
import { api } from './api.js';
import { h, field, input, table, when, title, notice, button, mono, units } from './ui.js';

/** Symbol and decimals of each asset, learned from the latest payments (the balance has amounts only). */
async function assetNames() {
  const out = new Map();
  try {
    const r = await api('GET', '/v1/payments', { query: { limit: 100 } });
    for (const p of r.data) if (p.tokenAmount?.display) out.set(p.tokenAmount.unit.replace(/^caip19\//, ''), p.tokenAmount.display);
  } catch {
    // amounts stay in the smallest unit
  }
  return out;
}

const day = (d) => d.toISOString().slice(0, 10);

export async function balancePage() {
  const names = await assetNames();
  const amount = (asset, v) => {
    const d = names.get(asset);
    return d ? units(v, d.decimals) + ' ' + d.assetSymbol : v + ' (smallest unit)';
  };
  const assetName = (asset) => (names.get(asset) ? h('span', {}, names.get(asset).assetSymbol, ' ', mono(asset)) : mono(asset));
  const msg = notice();
  let balances = h('p', {});
  try {
    const b = await api('GET', '/v1/balance');
    balances = table(
      'Balance per asset',
      [
        ['Asset', (x) => assetName(x.asset)],
        ['Available', (x) => amount(x.asset, x.available)],
        ['Pending', (x) => amount(x.asset, x.pending)],
        ['On its way out', (x) => amount(x.asset, x.reserved)],
        ['Refund reserve', (x) => amount(x.asset, x.reserve)],
      ],
      b.balances,
      'Nothing collected yet.',
    );
    balances.id = 'balances';
  } catch (e) {
    msg.error(e);
  }

  const now = new Date();
  const from = input({ id: 'tx-from', type: 'date', value: day(new Date(now.getTime() - 30 * 864e5)), required: true });
  const to = input({ id: 'tx-to', type: 'date', value: day(new Date(now.getTime() + 864e5)), required: true });
  const txs = h('div', { id: 'balance-transactions' });
  const txMsg = notice();
  const range = () => {
    if (!from.value || !to.value) throw new Error('Choose both dates.');
    return { from: from.value + 'T00:00:00Z', to: to.value + 'T00:00:00Z' };
  };
  const cursors = [null];

  async function load() {
    txMsg.clear();
    const r = await api('GET', '/v1/reports/balance-transactions', {
      query: { ...range(), limit: 50, cursor: cursors[cursors.length - 1] },
    });
    const prev = button('Previous page', async () => (cursors.pop(), load()), {}, txMsg);
    prev.disabled = cursors.length < 2;
    const next = button('Next page', async () => (cursors.push(r.nextCursor), load()), {}, txMsg);
    next.disabled = !r.nextCursor;
    txs.replaceChildren(
      table(
        'Balance transactions',
        [
          ['When', (t) => when(t.createdAt)],
          ['Type', (t) => t.type.replace(/_/g, ' ')],
          ['Bucket', (t) => t.bucket],
          ['Amount', (t) => amount(t.asset, t.amount)],
          [
            'Payment',
            (t) => (t.paymentId ? h('a', { href: '#/payments/' + encodeURIComponent(t.paymentId) }, t.referenceId || t.paymentId) : '—'),
          ],
          ['Transaction', (t) => mono(t.txHash)],
        ],
        r.data,
        'No movements in this range.',
      ),
      h('div', { class: 'pager' }, prev, next),
    );
  }

  const show = button('Show', async () => (cursors.splice(1), load()), { id: 'tx-show' }, txMsg);
  const csv = button(
    'Export CSV',
    async () => {
      const q = range();
      const r = await api('GET', '/v1/reports/balance-transactions', { query: q, accept: 'text/csv', raw: true });
      const blob = await r.blob();
      const url = URL.createObjectURL(blob);
      const a = h('a', { href: url, download: 'balance-transactions-' + from.value + '-to-' + to.value + '.csv', hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      txMsg.ok('Exported ' + from.value + ' to ' + to.value + ' as CSV.');
    },
    { id: 'tx-export' },
    txMsg,
  );
  try {
    await load();
  } catch (e) {
    txMsg.error(e);
  }
  return h(
    'section',
    {},
    title('Balance'),
    msg,
    balances,
    h('h2', {}, 'Balance transactions'),
    h('div', { class: 'filters' }, field('From', from), field('To (not included)', to), show, csv),
    txMsg,
    txs,
  );
}
