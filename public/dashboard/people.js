// People (owners only): invite someone with a role (the invite link is shown to pass on), the list, remove.
import { auth, session } from './api.js';
import { h, field, input, select, form, table, when, title, notice, button, secretBox } from './ui.js';

const ROLES = [
  ['viewer', 'Viewer: sees everything, changes nothing'],
  ['developer', 'Developer: keys, webhooks, merchants, refunds'],
  ['owner', 'Owner: everything, and people'],
];

export async function peoplePage() {
  if (session.user.role !== 'owner')
    return h('section', {}, title('People'), h('p', { class: 'notice error' }, 'Only owners manage people.'));
  const msg = notice();
  const list = h('div', { id: 'people-list' });
  const link = h('div', { id: 'invite-link' });

  async function load() {
    const { data } = await auth('GET', 'users');
    list.replaceChildren(
      table(
        'People',
        [
          ['Email', (u) => u.email],
          ['Role', (u) => u.role],
          ['Two-step sign-in', (u) => (u.totpEnabled ? 'on' : 'off')],
          ['Since', (u) => when(u.createdAt)],
          [
            '',
            (u) =>
              u.id === session.user.id
                ? h('span', { class: 'muted' }, 'you')
                : button(
                    'Remove',
                    async () => {
                      if (!window.confirm('Remove ' + u.email + ' from ' + session.user.accountName + '?')) return;
                      await auth('DELETE', 'users/' + encodeURIComponent(u.id));
                      await load();
                    },
                    { class: 'danger', 'aria-label': 'Remove ' + u.email },
                    msg,
                  ),
          ],
        ],
        data,
      ),
    );
  }

  const email = input({ id: 'invite-email', type: 'email', required: true });
  const role = select({ id: 'invite-role' }, ROLES);
  const invite = form(
    { id: 'invite-create', class: 'card' },
    [
      h('h2', {}, 'Invite someone'),
      field('Email', email),
      field('Role', role),
      h('button', { type: 'submit', class: 'primary' }, 'Create invite'),
    ],
    async (f) => {
      const r = await auth('POST', 'users/invite', { email: email.value.trim(), role: role.value });
      f.reset();
      link.replaceChildren(
        secretBox('Send this link to ' + (r.email || 'them') + ' (valid until ' + when(r.expiresAt) + '):', r.inviteUrl, 'invite-url'),
      );
      await load();
    },
  );
  try {
    await load();
  } catch (e) {
    msg.error(e);
  }
  return h('section', {}, title('People'), msg, invite, link, list);
}
