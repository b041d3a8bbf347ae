// Webhook endpoints (create, rotate the signing secret: each secret is shown once, remove) and the events with their
// deliveries and attempts, and redelivery.
import { api, canWrite } from './api.js';
import { h, field, input, form, table, when, badge, title, notice, button, mono, secretBox, select } from './ui.js';

const EVENT_TYPES = [
  'payment.created',
  'payment.processing',
  'payment.succeeded',
  'payment.failed',
  'payment.expired',
  'payment.cancelled',
  'payment.settled',
  'payment.settlement_held',
  'payment.refunded',
  'refund.created',
  'refund.succeeded',
  'refund.failed',
];

export async function webhooksPage() {
  const msg = notice();
  const secret = h('div', { id: 'webhook-secret' });
  const list = h('div', { id: 'webhook-endpoints' });
  const write = canWrite();

  async function load() {
    const { endpoints } = await api('GET', '/v1/webhook-endpoints');
    list.replaceChildren(
      table(
        'Webhook endpoints',
        [
          ['URL', (e) => mono(e.url)],
          ['Events', (e) => e.enabledEvents.join(', ')],
          ['Status', (e) => badge(e.status)],
          ['Created', (e) => when(e.createdAt)],
          [
            '',
            (e) =>
              write
                ? h(
                    'div',
                    { class: 'actions' },
                    button(
                      'Rotate secret',
                      async () => {
                        const r = await api('POST', '/v1/webhook-endpoints/' + encodeURIComponent(e.id) + '/rotate-secret', {
                          body: { overlapSeconds: 86400 },
                          idempotent: true,
                        });
                        showSecret('New signing secret for ' + e.url + ' (the previous one works for 24 hours more):', r.secret);
                      },
                      { class: 'rotate-secret', 'aria-label': 'Rotate the secret of ' + e.url },
                      msg,
                    ),
                    button(
                      'Remove',
                      async () => {
                        if (!window.confirm('Stop sending events to ' + e.url + '?')) return;
                        await api('DELETE', '/v1/webhook-endpoints/' + encodeURIComponent(e.id));
                        await load();
                      },
                      { 'aria-label': 'Remove ' + e.url },
                      msg,
                    ),
                  )
                : '',
          ],
        ],
        endpoints,
        'No endpoints yet.',
      ),
    );
  }

  function showSecret(label, value) {
    secret.replaceChildren(
      secretBox(label + ' It is shown only now: store it in your server’s configuration.', value, 'webhook-secret-value'),
    );
    secret.querySelector('button')?.focus();
  }

  let create = null;
  if (write) {
    const url = input({ id: 'webhook-url', type: 'url', required: true, placeholder: 'https://example.com/paygate-events' });
    const desc = input({ id: 'webhook-description', maxlength: '256' });
    const boxes = EVENT_TYPES.map((t, i) =>
      h(
        'div',
        { class: 'check' },
        h('input', { type: 'checkbox', id: 'ev-' + i, value: t, checked: true }),
        h('label', { for: 'ev-' + i }, t),
      ),
    );
    create = form(
      { id: 'webhook-create', class: 'card' },
      [
        h('h2', {}, 'New endpoint'),
        field('URL (https)', url),
        field('Description (optional)', desc),
        h('fieldset', { class: 'checks' }, h('legend', {}, 'Events to send'), boxes),
        h('button', { type: 'submit', class: 'primary' }, 'Add endpoint'),
      ],
      async (f) => {
        const enabledEvents = boxes
          .map((b) => b.querySelector('input'))
          .filter((c) => c.checked)
          .map((c) => c.value);
        const body = { url: url.value.trim(), enabledEvents };
        if (desc.value.trim()) body.description = desc.value.trim();
        const r = await api('POST', '/v1/webhook-endpoints', { body, idempotent: true });
        f.reset();
        boxes.forEach((b) => (b.querySelector('input').checked = true));
        showSecret('Signing secret for ' + r.endpoint.url + '.', r.secret);
        await load();
      },
    );
  }
  try {
    await load();
  } catch (e) {
    msg.error(e);
  }
  return h('section', {}, title('Webhook endpoints'), msg, secret, create, list);
}

export async function deliveriesPage() {
  const type = select({ id: 'events-type' }, [['', 'Any type'], ...EVENT_TYPES.map((t) => [t, t])]);
  const list = h('div', { id: 'events-list' });
  const detail = h('div', { id: 'event-detail' });
  const msg = notice();
  const cursors = [null];

  async function load() {
    msg.clear();
    const r = await api('GET', '/v1/events', { query: { type: type.value, cursor: cursors[cursors.length - 1], limit: 25 } });
    const prev = button('Previous page', async () => (cursors.pop(), load()), {}, msg);
    prev.disabled = cursors.length < 2;
    const next = button('Next page', async () => (cursors.push(r.nextCursor), load()), {}, msg);
    next.disabled = !r.nextCursor;
    list.replaceChildren(
      table(
        'Events',
        [
          ['When', (e) => when(e.createdAt)],
          ['Type', (e) => e.type],
          ['Payment', (e) => paymentOf(e)],
          [
            '',
            (e) => button('Deliveries', () => open(e), { class: 'open-event', 'aria-label': 'Deliveries of ' + e.type + ' ' + e.id }, msg),
          ],
        ],
        r.events,
        'No events yet.',
      ),
      h('div', { class: 'pager' }, prev, next),
    );
  }

  async function open(e) {
    const r = await api('GET', '/v1/events/' + encodeURIComponent(e.id) + '/attempts');
    const dmsg = notice();
    const redeliver = canWrite()
      ? button(
          'Redeliver',
          async () => {
            const x = await api('POST', '/v1/events/' + encodeURIComponent(e.id) + '/redeliver', { body: {}, idempotent: true });
            dmsg.ok('Queued ' + x.deliveries.length + ' new ' + (x.deliveries.length === 1 ? 'delivery' : 'deliveries') + '.');
            setTimeout(() => detail.isConnected && open(e).catch(() => {}), 1500);
          },
          { id: 'redeliver' },
          dmsg,
        )
      : null;
    detail.replaceChildren(
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'event-title' },
        h('h2', { id: 'event-title', tabindex: '-1' }, e.type),
        h('p', { class: 'muted' }, mono(e.id), ' · ', when(e.createdAt)),
        dmsg,
        redeliver,
        h('h3', {}, 'Deliveries'),
        table(
          'Deliveries',
          [
            ['Endpoint', (d) => mono(d.endpointId)],
            ['Status', (d) => badge(d.status)],
            ['Redelivery', (d) => (d.redelivery ? 'yes' : 'no')],
            ['Attempts', (d) => String(d.attempts)],
            ['Next attempt', (d) => when(d.nextAttemptAt)],
          ],
          r.deliveries,
          'No endpoint was subscribed to this event.',
        ),
        h('h3', {}, 'Attempts'),
        table(
          'Attempts',
          [
            ['When', (a) => when(a.attemptedAt)],
            ['Endpoint', (a) => mono(a.endpointId)],
            ['Answer', (a) => (a.responseStatus ? String(a.responseStatus) : a.error || '—')],
            ['Took', (a) => a.durationMs + ' ms'],
            ['Result', (a) => badge(a.succeeded ? 'succeeded' : 'failed')],
          ],
          r.attempts,
          'No attempts yet.',
        ),
      ),
    );
    detail.querySelector('h2').focus();
  }

  type.addEventListener('change', () => {
    cursors.splice(1);
    load().catch((e) => msg.error(e));
  });
  try {
    await load();
  } catch (e) {
    msg.error(e);
  }
  return h('section', {}, title('Deliveries'), h('div', { class: 'filters' }, field('Event type', type)), msg, list, detail);
}

function paymentOf(e) {
  const id = e.data?.paymentId || e.data?.object?.paymentId || e.data?.payment?.paymentId;
  return id ? h('a', { href: '#/payments/' + encodeURIComponent(id) }, id) : '—';
}
