// One payment: amount, status, the option paid, transaction hashes, settlement, refunds, the timeline of its events,
// and (for owners and developers) a refund, full or partial, after a confirmation step.
import { api, canWrite, ApiError } from './api.js';
import { h, field, input, table, money, token, when, badge, title, mono, notice, button, toMinor, currencyOf } from './ui.js';
import { merchantOf } from './payments.js';

/** GET /v1/payments/{id}: it needs its merchant's id; unknown here, each merchant is asked in turn. */
async function fetchPayment(id) {
  const known = merchantOf.get(id);
  if (known) return api('GET', '/v1/payments/' + encodeURIComponent(id), { merchantId: known });
  const { merchants } = await api('GET', '/v1/merchants', { query: { limit: 100 } });
  for (const m of merchants) {
    try {
      const p = await api('GET', '/v1/payments/' + encodeURIComponent(id), { merchantId: m.id });
      merchantOf.set(id, m.id);
      return p;
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
    }
  }
  throw new ApiError(404, 'payment_not_found', 'Payment not found.');
}

function settlementOf(st, shown) {
  if (!st) return h('p', { id: 'settlement' }, 'Not settled yet.');
  if (st.successful)
    return h(
      'p',
      { id: 'settlement' },
      'Settled: ',
      token(shown(st.successful.amount)),
      ' in transaction ',
      mono(st.successful.txId, { id: 'settlement-tx' }),
    );
  if (st.pending)
    return h(
      'p',
      { id: 'settlement' },
      'Settlement in progress (',
      st.pending.message || st.pending.status,
      ', ',
      String(st.pending.attempts),
      ' attempts).',
    );
  const f = st.failed;
  return h(
    'p',
    { id: 'settlement', class: 'notice error' },
    'Settlement held: ',
    f.message,
    f.action === 'change_destination' ? ' Change the merchant’s settlement destination.' : ' Contact the operator.',
  );
}

function refundStatus(r) {
  if (r.status === 'requires_funding' && r.fundingInstructions)
    return h('span', {}, badge(r.status), ' ', h('a', { href: r.fundingInstructions.gatewayUrl, rel: 'noreferrer' }, 'Fund this refund'));
  return badge(r.status);
}

export async function paymentPage(id) {
  const box = h('div', { id: 'payment' });
  const outcome = notice();
  outcome.id = 'refund-result';
  const page = h('section', {}, h('p', {}, h('a', { href: '#/payments' }, '← All payments')), title('Payment'), outcome, box);
  let polls = 0;

  async function draw() {
    const p = await fetchPayment(id);
    const ev = await api('GET', '/v1/events', { query: { paymentId: id, limit: 100 } }).catch(() => ({ events: [] }));
    const events = [...ev.events].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const refunds = p.refunds || [];
    const shown = (a) => (a && !a.display && p.info ? { ...a, display: p.info.optionAmount.display } : a); // same token as paid
    box.replaceChildren(
      h(
        'dl',
        { class: 'facts' },
        h('dt', {}, 'Amount'),
        h('dd', { id: 'payment-amount' }, money(p.amount)),
        h('dt', {}, 'Status'),
        h('dd', { id: 'payment-status', 'data-status': p.status }, badge(p.status), p.failureCode ? ' (' + p.failureCode + ')' : ''),
        h('dt', {}, 'Reference'),
        h('dd', { id: 'payment-reference' }, p.referenceId),
        h('dt', {}, 'Payment id'),
        h('dd', {}, mono(p.paymentId)),
        h('dt', {}, 'Created'),
        h('dd', {}, when(p.createdAt)),
        h('dt', {}, 'Paid with'),
        h('dd', { id: 'payment-option' }, p.info ? token(p.info.optionAmount) : '—'),
        h('dt', {}, 'Transaction'),
        h('dd', {}, p.info ? mono(p.info.txId, { id: 'payment-tx' }) : '—'),
        h('dt', {}, 'Refunded'),
        h(
          'dd',
          { id: 'payment-refunded' },
          money(p.refundedAmount),
          p.refundedTokenAmount ? ' (' + token(p.refundedTokenAmount) + ')' : '',
        ),
      ),
      h('h2', {}, 'Settlement'),
      settlementOf(p.settlement, shown),
      h('h2', {}, 'Refunds'),
      table(
        'Refunds',
        [
          ['Created', (r) => when(r.createdAt)],
          ['Amount', (r) => money(r.amount)],
          ['Tokens', (r) => token(shown(r.tokenAmount))],
          ['Status', (r) => h('span', { class: 'refund-status', 'data-status': r.status }, refundStatus(r))],
          ['Transaction', (r) => mono(r.txId, { class: 'mono refund-tx' })],
        ],
        refunds,
        'No refunds.',
      ),
      (canWrite() && p.status === 'succeeded' && refundForm(p, afterRefund, outcome)) || '',
      h('h2', {}, 'Timeline'),
      events.length
        ? h(
            'ol',
            { class: 'timeline', id: 'timeline' },
            events.map((e) =>
              h('li', { 'data-type': e.type }, h('time', { datetime: e.createdAt }, when(e.createdAt)), ' ', h('strong', {}, e.type)),
            ),
          )
        : h('p', { class: 'muted' }, 'No events.'),
    );
    return refunds;
  }

  /** After a refund: follow it (every 2 s, up to 2 minutes) until it is no longer being sent. */
  async function afterRefund() {
    polls = 0;
    for (;;) {
      const refunds = await draw();
      if (!refunds.some((r) => r.status === 'pending') || ++polls > 60 || !page.isConnected) return;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }

  await draw();
  return page;
}

function refundForm(p, after, outcome) {
  const cur = currencyOf(p.amount);
  const left = BigInt(p.amount.value) - BigInt(p.refundedAmount?.value || '0');
  if (left <= 0n) return null;
  const leftAmount = { unit: p.amount.unit, value: left.toString() };
  const msg = notice();
  const amount = input({ id: 'refund-amount', inputmode: 'decimal', placeholder: 'e.g. 5.00' });
  const full = h('input', { type: 'radio', name: 'refund-kind', id: 'refund-full', value: 'full', checked: true });
  const part = h('input', { type: 'radio', name: 'refund-kind', id: 'refund-partial', value: 'partial' });
  const amountField = field('Amount to refund (' + cur + ')', amount, 'At most ' + money(leftAmount) + '.');
  amountField.hidden = true;
  const toggle = () => (amountField.hidden = !part.checked);
  full.addEventListener('change', toggle);
  part.addEventListener('change', toggle);
  const confirmBox = h('div', { class: 'confirm', id: 'refund-confirm', hidden: true });
  const review = button(
    'Refund…',
    async () => {
      let value = null;
      if (part.checked) {
        value = toMinor(amount.value, cur);
        if (!value || BigInt(value) > left) throw new Error('Enter an amount above zero and at most ' + money(leftAmount) + '.');
      }
      const shown = value ? money({ unit: p.amount.unit, value }) : money(leftAmount);
      const go = button(
        'Confirm refund of ' + shown,
        async () => {
          const body = { paymentId: p.paymentId, ...(value ? { amount: { unit: p.amount.unit, value } } : {}) };
          const r = await api('POST', '/v1/refunds', { body, merchantId: p.merchantId, idempotent: true });
          const funding = r.refund.status === 'requires_funding' ? ' It needs funding before it is sent: use the link in the list.' : '';
          outcome.ok('Refund ' + r.refund.id + ' created: ' + r.refund.status.replace(/_/g, ' ') + '.' + funding);
          confirmBox.hidden = true;
          await after();
        },
        { class: 'danger', id: 'refund-confirm-button' },
        msg,
      );
      const cancel = button('Cancel', () => {
        confirmBox.hidden = true;
        review.focus();
      });
      confirmBox.replaceChildren(h('p', {}, 'Send ' + shown + ' back to the buyer? This cannot be undone.'), go, ' ', cancel);
      confirmBox.hidden = false;
      go.focus();
    },
    { id: 'refund-button', class: 'danger' },
    msg,
  );
  return h(
    'section',
    { class: 'card', id: 'refund', 'aria-labelledby': 'refund-title' },
    h('h2', { id: 'refund-title' }, 'Refund'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'How much'),
      h('div', { class: 'radio' }, full, h('label', { for: 'refund-full' }, 'Full refund (' + money(leftAmount) + ')')),
      h('div', { class: 'radio' }, part, h('label', { for: 'refund-partial' }, 'Partial refund')),
    ),
    amountField,
    review,
    confirmBox,
    msg,
  );
}
