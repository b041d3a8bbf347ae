import type { Handler } from '../../src/http/handlerTypes';
import { listAuditEvents as list } from '../../src/usecases/keys/apiKeys';
import { auditEventBody } from './present';

export const listAuditEvents: Handler<'listAuditEvents'> = async ({ db, caller, query }) => ({
  status: 200,
  body: { data: (await list(db, caller, query.limit ?? 20)).map(auditEventBody) },
});
