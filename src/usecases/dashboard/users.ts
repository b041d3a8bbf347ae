import { deleteUser, usersOf, type DashboardUser } from '../../db/dashboardRepo';
import type { Db } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { managesPeople } from '../../domain/dashboard';
import { canBeStoredId } from '../../domain/ids';

export type { DashboardUser } from '../../db/dashboardRepo';

// The people of an account's dashboard (docs/dashboard.md): owners list and remove them.

/** A user as the dashboard's routes answer it. */
export const userView = (u: DashboardUser) => ({
  id: u.id,
  email: u.email,
  role: u.role,
  accountId: u.accountId,
  accountName: u.accountName,
  totpEnabled: u.sealedTotp !== null,
});

/** 403 forbidden unless the user is an owner. */
export function mustManagePeople(u: DashboardUser): void {
  if (!managesPeople(u.role)) throw new AppError('forbidden', 'Only an owner may manage the people of the account.');
}

export async function listUsers(db: Db, by: DashboardUser) {
  mustManagePeople(by);
  return (await usersOf(db, by.accountId)).map((u) => ({
    id: u.id,
    email: u.email,
    role: u.role,
    totpEnabled: u.sealedTotp !== null,
    createdAt: u.createdAt.toISOString(),
  }));
}

/** Removes a user of the owner's account; their sessions end at once (cascade). Never oneself (409). */
export async function removeUser(db: Db, by: DashboardUser, userId: string): Promise<void> {
  mustManagePeople(by);
  if (userId === by.id) throw new AppError('invalid_state', 'You cannot remove yourself: ask another owner.');
  const removed = canBeStoredId(userId) && (await deleteUser(db, by.accountId, userId, { type: 'dashboard_user', id: by.id }));
  if (!removed) throw new AppError('not_found', 'No such user.');
}
