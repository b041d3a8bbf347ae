import type { Db } from '../../db/knex';
import { sendJson, sendStream } from '../render';
import type { AfterCommit } from './afterCommit';
import type { Dispatch } from './dispatch';
import type { RequestContext } from './state';

/**
 * A request without an Idempotency-Key (every GET, PATCH and DELETE, and a POST without one): `prepare`
 * and the handler run on the pool, outside any transaction. `holdSlot` is the long-poll slot the request
 * holds while it runs (null when it does not wait).
 */
export async function runDirect(
  ctx: RequestContext,
  db: Db,
  dispatch: Dispatch,
  afterCommit: AfterCommit,
  holdSlot: (() => () => void) | null,
): Promise<void> {
  const release = holdSlot ? holdSlot() : null;
  let reply;
  try {
    reply = await dispatch.run(db, await dispatch.prepare(), false);
  } finally {
    release?.();
  }
  afterCommit.run();
  if (reply.stream) sendStream(ctx, reply.status, reply.stream, reply.headers);
  else sendJson(ctx, reply.status, reply.text, reply.headers);
}
