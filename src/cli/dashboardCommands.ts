import { need, UsageError, type Command } from './adminArgs';

// The partner dashboard's people (docs/dashboard.md): the operator invites an account's first owner, who invites
// the others from the dashboard.
//   admin dashboard invite --account <id> --email <e> [--role owner|developer|viewer]  -> {"inviteUrl","expiresAt"}
//         (the link is shown once; it expires after 7 days; written to the account's audit log, actor operator)

export const DASHBOARD_COMMANDS: Record<string, Command> = {
  'dashboard invite': (v) => {
    const account = need(v, 'account');
    const email = need(v, 'email');
    const role = v.role?.trim() ?? 'owner';
    if (role !== 'owner' && role !== 'developer' && role !== 'viewer') throw new UsageError('--role must be owner, developer or viewer');
    return async (db, config) => {
      const { createInvite } = await import('../usecases/dashboard/invites');
      const deps = { dataKeys: config.dataKeys, publicBaseUrl: config.publicBaseUrl };
      return createInvite(db, deps, { accountId: account, email, role }, { type: 'operator' });
    };
  },
};
