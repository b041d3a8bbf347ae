// The dashboard's shell: the session check, the header (account, live/test switch, sign out), the navigation and the
// hash router (#/payments, #/payments/<id>, #/invite/<token>, ...). Each page is a module's function that fills the
// <main> element; it runs again when the route or the mode changes.
import { auth, session, signedIn, signedOut, onSignedOut, isOwner } from './api.js';
import { h } from './ui.js';
import { signInPage, invitePage } from './auth.js';
import { paymentsPage } from './payments.js';
import { paymentPage } from './payment.js';
import { merchantsPage } from './merchants.js';
import { balancePage } from './balance.js';
import { webhooksPage, deliveriesPage } from './webhooks.js';
import { keysPage } from './keys.js';
import { peoplePage } from './people.js';

const NAV = [
  ['payments', 'Payments'],
  ['merchants', 'Merchants'],
  ['balance', 'Balance'],
  ['webhooks', 'Webhooks'],
  ['deliveries', 'Deliveries'],
  ['keys', 'API keys'],
  ['people', 'People', isOwner],
];

const ROUTES = {
  payments: (rest) => (rest[0] ? paymentPage(rest[0]) : paymentsPage()),
  merchants: () => merchantsPage(),
  balance: () => balancePage(),
  webhooks: () => webhooksPage(),
  deliveries: () => deliveriesPage(),
  keys: () => keysPage(),
  people: () => peoplePage(),
};

const main = document.getElementById('main');
const header = document.getElementById('top');
const nav = document.getElementById('nav');
let renderSeq = 0;

/** The route of the hash: ['payments', 'pay_1'] for #/payments/pay_1. */
function route() {
  const m = /^#\/(.*)$/.exec(location.hash);
  return (m ? m[1] : '').split('?')[0].split('/').filter(Boolean).map(decodeURIComponent);
}

export function go(hash) {
  if (location.hash === hash) render();
  else location.hash = hash;
}

function drawHeader() {
  header.replaceChildren();
  nav.replaceChildren();
  const brand = h('a', { class: 'brand', href: '#/payments' }, 'paygate');
  if (!session.user) {
    header.append(brand);
    nav.hidden = true;
    return;
  }
  nav.hidden = false;
  const u = session.user;
  const mode = h(
    'button',
    {
      type: 'button',
      id: 'mode-switch',
      class: 'mode mode-' + session.mode,
      role: 'switch',
      'aria-checked': String(session.mode === 'test'),
      onclick: async () => {
        mode.disabled = true;
        try {
          const r = await auth('POST', 'mode', { mode: session.mode === 'live' ? 'test' : 'live' });
          session.mode = r.mode;
          drawHeader();
          render();
        } catch (e) {
          window.alert(e.message);
          mode.disabled = false;
        }
      },
    },
    h('span', { class: 'sr-only' }, 'Test mode: '),
    session.mode === 'test' ? 'Test data' : 'Live data',
  );
  const out = h(
    'button',
    {
      type: 'button',
      id: 'sign-out',
      class: 'link',
      onclick: async () => {
        try {
          await auth('POST', 'logout');
        } finally {
          signedOut();
          drawHeader();
          go('#/sign-in');
        }
      },
    },
    'Sign out',
  );
  header.append(
    brand,
    h('span', { class: 'account', id: 'account-name' }, u.accountName),
    h('span', { class: 'who' }, h('span', { id: 'user-email' }, u.email), ' · ', h('span', { id: 'user-role' }, u.role)),
    mode,
    out,
  );
  if (session.mode === 'test') header.append(h('p', { class: 'test-banner', id: 'test-banner' }, 'You are viewing test data.'));
  const current = route()[0];
  nav.append(
    h(
      'ul',
      {},
      NAV.filter(([, , show]) => !show || show()).map(([id, text]) =>
        h('li', {}, h('a', { href: '#/' + id, 'aria-current': current === id ? 'page' : null }, text)),
      ),
    ),
  );
}

async function render() {
  const seq = ++renderSeq;
  const [name, ...rest] = route();
  let view;
  if (name === 'invite') view = () => invitePage(rest[0] || '', done);
  else if (!session.user || name === 'sign-in') {
    if (session.user && name === 'sign-in') return go('#/payments');
    view = () => signInPage(done);
  } else view = () => (ROUTES[name] || ROUTES.payments)(rest);
  drawHeader();
  main.replaceChildren(h('p', { class: 'muted', role: 'status' }, 'Loading…'));
  let content;
  try {
    content = await view();
  } catch (e) {
    content = h('div', {}, h('h1', {}, 'Something went wrong'), h('p', { class: 'notice error', role: 'alert' }, e.message));
  }
  if (seq !== renderSeq) return; // a later navigation won
  main.replaceChildren(content);
  // Focus moves to the new page (its first field when it has one marked autofocus), as a screen reader expects.
  const target = main.querySelector('[data-autofocus]') || main.querySelector('h1');
  if (target) target.focus({ preventScroll: true });
}

/** After sign-in or an accepted invite: the payments page (or where the user was going). */
function done(answer) {
  signedIn(answer);
  const r = route()[0];
  go(!r || r === 'sign-in' || r === 'invite' ? '#/payments' : location.hash);
}

onSignedOut(() => {
  signedOut();
  go('#/sign-in');
});

// The skip link moves focus without changing the route.
document.querySelector('.skip').addEventListener('click', (ev) => {
  ev.preventDefault();
  main.focus();
});

// A navigation link to the page already shown draws it again (fresh data).
nav.addEventListener('click', (ev) => {
  const a = ev.target.closest('a');
  if (a && a.getAttribute('href') === location.hash) {
    ev.preventDefault();
    render();
  }
});

window.addEventListener('hashchange', () => {
  if (location.hash.startsWith('#/') || location.hash === '') render();
});

(async function start() {
  if (route()[0] !== 'invite') {
    try {
      signedIn(await auth('GET', 'session'));
    } catch {
      signedOut();
    }
  }
  render();
})();
