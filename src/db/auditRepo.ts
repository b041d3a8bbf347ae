import { newId } from '../domain/ids';
import { Db, knexOf } from './knex';

// audit_events (migration 20261229090000): what was changed in an account scope, by whom (docs/keys.md).

export type AuditActor = { type: 'api_key'; id: string } | { type: 'dashboard_user'; id: string } | { type: 'operator' };

export interface AuditEvent {
  id: string;
  action: string;
  actor: { type: AuditActor['type']; id: string | null };
  target: string;
  createdAt: Date;
}

export async function recordAudit(db: Db, scope: string, actor: AuditActor, action: string, target: string): Promise<void> {
  await knexOf(db)('audit_events').insert({
    id: newId('aud'),
    account_id: scope,
    actor_type: actor.type,
    actor_id: actor.type === 'operator' ? null : actor.id,
    action,
    target,
  });
}

/** The scope's audit events, newest first. */
export async function auditEventsOf(db: Db, scope: string, limit: number): Promise<AuditEvent[]> {
  const rows = await knexOf(db)('audit_events')
    .where({ account_id: scope })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    action: r.action,
    actor: { type: r.actor_type, id: r.actor_id },
    target: r.target,
    createdAt: r.created_at,
  }));
}
