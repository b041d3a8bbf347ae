// Sign-in (email, password, the 6-digit code of an authenticator app) and accepting an invite (the TOTP secret to
// add to the authenticator, a new password and the first code).
import { auth, session } from './api.js';
import { h, field, input, form, title, mono } from './ui.js';

const codeInput = (id) =>
  input({
    id,
    name: 'totpCode',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    pattern: '[0-9]{6}',
    maxlength: '6',
    placeholder: '123456',
  });

export function signInPage(done) {
  const email = input({
    id: 'login-email',
    type: 'email',
    name: 'email',
    autocomplete: 'username',
    required: true,
    'data-autofocus': true,
  });
  const password = input({ id: 'login-password', type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const code = codeInput('login-code');
  const f = form(
    { id: 'sign-in-form', class: 'card narrow' },
    [
      field('Email', email),
      field('Password', password),
      field('6-digit code', code, 'From your authenticator app. Required when two-step sign-in is on.'),
      h('button', { type: 'submit', class: 'primary', id: 'sign-in' }, 'Sign in'),
    ],
    async () => {
      const body = { email: email.value.trim(), password: password.value };
      if (code.value.trim()) body.totpCode = code.value.trim();
      done(await auth('POST', 'login', body));
    },
  );
  return h('section', { class: 'auth' }, title('Sign in to your dashboard'), f);
}

export async function invitePage(token, done) {
  let inv;
  try {
    inv = await auth('GET', 'invite?token=' + encodeURIComponent(token));
  } catch (e) {
    return h(
      'section',
      { class: 'auth' },
      title('This invite cannot be used'),
      h('p', { class: 'notice error', role: 'alert' }, e.message),
      h('p', {}, 'Ask the person who invited you for a new link, or ', h('a', { href: '#/sign-in' }, 'sign in'), '.'),
    );
  }
  if (session.user) session.user = null; // accepting an invite signs in as the new user
  const password = input({
    id: 'invite-password',
    type: 'password',
    autocomplete: 'new-password',
    minlength: '12',
    required: true,
    'data-autofocus': true,
  });
  const repeat = input({ id: 'invite-password2', type: 'password', autocomplete: 'new-password', minlength: '12', required: true });
  const code = codeInput('invite-code');
  const owner = inv.role === 'owner';
  const f = form(
    { id: 'invite-form', class: 'card narrow' },
    [
      h(
        'div',
        { class: 'totp' },
        h('h2', {}, '1. Add paygate to your authenticator app'),
        h('p', {}, 'In your authenticator app, add an account with this setup key (or open the link on your phone):'),
        h('p', {}, 'Setup key: ', mono(inv.totpSecret, { id: 'totp-secret' })),
        h('p', {}, h('a', { href: inv.otpauthUrl, id: 'otpauth-url' }, 'Open in an authenticator app')),
      ),
      h('h2', {}, '2. Choose a password'),
      field('New password', password, 'At least 12 characters.'),
      field('Repeat the password', repeat),
      h('h2', {}, '3. Confirm the code'),
      field('6-digit code from the app', code, owner ? 'Required for owners.' : 'Recommended: turns on two-step sign-in.'),
      h('button', { type: 'submit', class: 'primary', id: 'accept-invite' }, 'Create my account'),
    ],
    async () => {
      if (password.value.length < 12) throw new Error('The password must be at least 12 characters.');
      if (password.value !== repeat.value) throw new Error('The two passwords differ.');
      const body = { token, password: password.value };
      if (code.value.trim()) body.totpCode = code.value.trim();
      done(await auth('POST', 'invite/accept', body));
    },
  );
  return h(
    'section',
    { class: 'auth' },
    title('Join ' + inv.accountName),
    h('p', {}, 'You were invited as ', h('strong', {}, inv.role), ' with ', h('strong', {}, inv.email), '.'),
    f,
  );
}
