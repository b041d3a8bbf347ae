// The payments list: filter by status, search by reference, a page at a time (the API's cursor), and the chart of
// daily volume and success rate per asset over the latest payments.
import { api } from './api.js';
import { h, field, input, select, table, money, token, when, badge, title, notice, button } from './ui.js';
import { volumeChart } from './chart.js';

const STATUSES = ['requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'];

/** Which merchant each listed payment belongs to: the detail page's Merchant-Id header. */
export const merchantOf = new Map();
try {
  for (const [k, v] of Object.entries(JSON.parse(window.sessionStorage.getItem('paygate.merchantOf') || '{}'))) merchantOf.set(k, v);
} catch {
  // no storage: the detail page asks the merchants
}
function remember(rows) {
  for (const p of rows) merchantOf.set(p.paymentId, p.merchant.id);
  try {
    window.sessionStorage.setItem('paygate.merchantOf', JSON.stringify(Object.fromEntries([...merchantOf].slice(-500))));
  } catch {
    // full or off
  }
}

const state = { status: '', referenceId: '', cursors: [null] };

export async function paymentsPage() {
  const status = select({ id: 'filter-status', name: 'status' }, [['', 'Any status'], ...STATUSES.map((s) => [s, s.replace(/_/g, ' ')])]);
  status.value = state.status;
  const ref = input({ id: 'filter-reference', type: 'search', name: 'referenceId', value: state.referenceId, placeholder: 'order-1234' });
  const results = h('div', { id: 'payments-results' });
  const msg = notice();
  const chartBox = h(
    'section',
    { id: 'chart', 'aria-labelledby': 'chart-title' },
    h('h2', { id: 'chart-title' }, 'Daily volume and success rate'),
  );

  async function load() {
    msg.clear();
    const cursor = state.cursors[state.cursors.length - 1];
    let r;
    try {
      r = await api('GET', '/v1/payments', {
        query: { status: state.status, referenceId: state.referenceId, cursor, limit: 20 },
      });
    } catch (e) {
      msg.error(e);
      results.replaceChildren();
      return;
    }
    remember(r.data);
    const rows = table(
      'Payments',
      [
        ['Created', (p) => when(p.createdAt)],
        ['Reference', (p) => h('a', { href: '#/payments/' + encodeURIComponent(p.paymentId), class: 'payment-link' }, p.referenceId)],
        ['Merchant', (p) => p.merchant.name],
        ['Amount', (p) => money(p.fiatAmount)],
        ['Paid with', (p) => (p.tokenAmount ? token(p.tokenAmount) : '—')],
        ['Status', (p) => badge(p.status)],
      ],
      r.data,
      state.status || state.referenceId ? 'No payment matches.' : 'No payments yet.',
    );
    const prev = button('Previous page', async () => {
      state.cursors.pop();
      await load();
    });
    prev.disabled = state.cursors.length < 2;
    const next = button('Next page', async () => {
      state.cursors.push(r.nextCursor);
      await load();
    });
    next.disabled = !r.nextCursor;
    results.replaceChildren(rows, h('div', { class: 'pager' }, prev, next));
  }

  const filters = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      onsubmit: (ev) => {
        ev.preventDefault();
        state.status = status.value;
        state.referenceId = ref.value.trim();
        state.cursors = [null];
        load();
      },
    },
    field('Status', status),
    field('Reference', ref),
    h('button', { type: 'submit' }, 'Search'),
  );
  status.addEventListener('change', () => filters.requestSubmit());

  await load();
  drawChart(chartBox);
  return h('section', {}, title('Payments'), filters, msg, results, chartBox);
}

/** The chart from the latest 100 payments (any status: the success rate needs the failures too). */
async function drawChart(box) {
  try {
    const r = await api('GET', '/v1/payments', { query: { limit: 100 } });
    box.append(volumeChart(r.data));
  } catch (e) {
    box.append(h('p', { class: 'notice error' }, e.message));
  }
}
