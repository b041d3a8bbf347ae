import { createHash } from 'node:crypto';
import { Db, inTransaction } from '../../db/knex';
import { AppError } from '../../domain/errors';
import { DataKeyring, seal, unseal } from '../../domain/sealed';
import * as idem from '../../db/idempotencyRepo';
import { SEALED_BODY } from '../../db/idempotencyRepo';
import { IDEMPOTENT_RESPONSE, sealedAt } from '../../db/sealedColumnsRepo';
import { canonicalJson } from '../canonicalJson';
import type { Caller } from '../handlerTypes';
import { rendered, sendJson } from '../render';
import type { AfterCommit } from './afterCommit';
import type { Dispatch } from './dispatch';
import type { RequestContext } from './state';

/** A POST under an Idempotency-Key: whose key it is and what it was sent with. */
export interface IdempotentRequest {
  /** Whose keys these are: an account's, or a gateway caller's own. */
  scope: string;
  key: string;
  /** The operation, path, Merchant-Id and body: the same key with another request is idempotency_conflict. */
  fingerprint: string;
}

/** The idempotency identity of a POST carrying an Idempotency-Key. */
export function idempotentRequest(
  ctx: RequestContext,
  key: string,
  operationId: string,
  caller: Caller,
  gateway: boolean,
  body: unknown,
): IdempotentRequest {
  // Gateway callers are third parties acting on any account's payments: their keys are theirs alone.
  const scope = gateway ? `caller:${caller.keyId}` : `account:${caller.accountId}`;
  const fingerprint = createHash('sha256')
    .update(canonicalJson({ op: operationId, path: ctx.path, merchant: ctx.get('merchant-id'), body: body ?? null }))
    .digest('hex');
  return { scope, key, fingerprint };
}

/**
 * Runs a request under its Idempotency-Key: a stored answer is replayed (Idempotent-Replayed: true); the
 * same key with another request is idempotency_conflict, one still running 409 idempotency_in_progress with
 * Retry-After (each as the operation answers it: render.ts). Otherwise `prepare` runs outside any transaction,
 * then the handler runs in the transaction that claims the key and stores its answer. A refusal (4xx but 429)
 * is stored too, so a retry gets the same answer; anything else (a 429 included) rolls everything back,
 * leaving no record, so a retry runs the work.
 */
export async function runIdempotent(
  ctx: RequestContext,
  db: Db,
  dataKeys: DataKeyring,
  request: IdempotentRequest,
  dispatch: Dispatch,
  afterCommit: AfterCommit,
): Promise<void> {
  const { scope, key, fingerprint } = request;
  const seen = await idem.lookup(db, scope, key, fingerprint);
  const prepared = seen ? undefined : await dispatch.prepare();
  const outcome =
    seen ??
    (await inTransaction(db, async (trx) => {
      const claimed = await idem.claim(trx, scope, key, fingerprint);
      if (claimed.kind !== 'claimed') return claimed;
      try {
        // In a savepoint: a refusal undoes the request's writes but keeps the claim, to store the refusal.
        const out = await inTransaction(trx, (sp) => dispatch.run(sp, prepared, true));
        // A response carrying a secret (a webhook signing secret) is kept only sealed, like every stored secret.
        await idem.complete(trx, scope, key, out.status, out.secret ? sealStored(dataKeys, out.text, scope, key) : out.text);
        return { kind: 'ran' as const, out };
      } catch (e) {
        // Anything else rolls the whole transaction back: no record is left, a retry runs the work. So does a
        // 429: it says "not now", and the same request after its Retry-After must be served, not refused again.
        if (!(e instanceof AppError) || e.status >= 500 || e.status === 429) throw e;
        // A refusal is part of the key's history: the same request gets the same answer.
        const answer = rendered(e, ctx.state.requestId, ctx.state.operationId);
        const text = JSON.stringify(answer.body);
        await idem.complete(trx, scope, key, answer.status, text);
        return { kind: 'refused' as const, error: e, status: answer.status, text };
      }
    }));
  switch (outcome.kind) {
    case 'mismatch':
      throw new AppError('idempotency_conflict');
    case 'in_progress':
      throw new AppError('idempotency_in_progress', undefined, undefined, { 'Retry-After': '1' });
    case 'done':
      sendJson(ctx, outcome.status, openStored(dataKeys, outcome.body, scope, key), { 'Idempotent-Replayed': 'true' });
      return;
    case 'refused':
      sendJson(ctx, outcome.status, outcome.text, outcome.error.headers);
      return;
    case 'ran':
      afterCommit.run();
      sendJson(ctx, outcome.out.status, outcome.out.text, outcome.out.headers);
  }
}

const sealStored = (keys: DataKeyring, text: string, scope: string, key: string) =>
  SEALED_BODY + seal(keys, text, sealedAt(IDEMPOTENT_RESPONSE, scope, key)).toString('base64');
const openStored = (keys: DataKeyring, body: string, scope: string, key: string) =>
  body.startsWith(SEALED_BODY)
    ? unseal(keys, Buffer.from(body.slice(SEALED_BODY.length), 'base64'), sealedAt(IDEMPOTENT_RESPONSE, scope, key))
    : body;
