import type { Db } from '../../db/knex';
import type { Config } from '../../config';
import type { ChainWork } from '../../domain/chain';
import type { ConfirmChecks } from '../../usecases/gateway/confirmChecks';
import type { ApiVersion } from '../../domain/versions';
import type { ChangeHub } from '../../events/changeHub';
import type { WebhookWork } from '../../jobs/webhooks/queue';
import type { Logger } from '../../logger';
import type { Caller, Handler, HandlerContext, HandlerMap, OperationId, RequestInput } from '../handlerTypes';
import { serialise } from '../sharedBody';
import type { AfterCommit } from './afterCommit';
import type { ResponseCheck } from './responseCheck';
import { auditedAction, recordChange } from '../../usecases/audit/changes';
import { auditActorOf } from '../../usecases/keys/apiKeys';

export interface DispatchDeps {
  db: Db;
  config: Config;
  log: Logger;
  handlers: HandlerMap;
  hub: ChangeHub;
  chainWork: ChainWork;
  confirmChecks: ConfirmChecks;
  webhookWork: WebhookWork;
}

/** A request the earlier stages have resolved: who calls which operation, at which version, with what input. */
export interface ResolvedRequest<K extends OperationId> {
  operationId: K;
  version: ApiVersion;
  caller: Caller;
  requestId: string;
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string | undefined>;
  input: RequestInput<K>;
}

/** A handler's reply, serialised once: what is sent and, under an Idempotency-Key, what is stored. */
export interface SerialisedReply {
  status: number;
  text: string;
  headers: Record<string, string>;
  /** The body carries a secret: a stored copy is sealed. */
  secret: boolean;
  /** A streamed body instead of `text` (GET only, so never stored), of media type `type`. */
  stream?: { body: AsyncIterable<string>; type: string };
}

/** The operation's handler, ready to run where the execution stage (direct.ts or idempotency.ts) decides. */
export interface Dispatch {
  /** The handler's `prepare` (network I/O), on the pool outside any transaction; undefined when it has none. */
  prepare(): Promise<unknown>;
  /**
   * The handler on `db`, its reply checked: on the pool, or in the savepoint under an Idempotency-Key claim
   * (`inTransaction`: the request's writes commit only after the handler returns).
   */
  run(db: Db, prepared: unknown, inTransaction: boolean): Promise<SerialisedReply>;
}

export function dispatcher<K extends OperationId>(
  deps: DispatchDeps,
  request: ResolvedRequest<K>,
  afterCommit: AfterCommit,
  checkResponse?: ResponseCheck,
): Dispatch {
  const handler: Handler<K> = deps.handlers[request.operationId];
  // Made when a handler first logs: most never do, and 10,000 long-polls would each hold one while they wait.
  let log: Logger | undefined;
  const context = (db: Db, prepared: unknown, inTransaction: boolean): HandlerContext<K> => ({
    operationId: request.operationId,
    version: request.version,
    caller: request.caller,
    ...request.input,
    headers: request.headers,
    db,
    canWaitForChanges: !inTransaction,
    config: deps.config,
    hub: deps.hub,
    chainWork: deps.chainWork,
    confirmChecks: deps.confirmChecks,
    webhookWork: deps.webhookWork,
    afterCommit: (f) => afterCommit.add(f),
    get log() {
      return (log ??= deps.log.child({ requestId: request.requestId }));
    },
    requestId: request.requestId,
    prepared,
  });
  return {
    // Network I/O a handler needs (a webhook URL's DNS) happens here, outside any transaction.
    prepare: async () => (handler.prepare ? handler.prepare(context(deps.db, undefined, false)) : undefined),
    run: async (db, prepared, inTransaction) => {
      const reply = await handler(context(db, prepared, inTransaction));
      if ('stream' in reply)
        return {
          status: reply.status,
          text: '',
          headers: reply.headers ?? {},
          secret: false,
          stream: { body: reply.stream, type: reply.type },
        };
      const text = serialise(reply.body);
      // The text is checked, not the object: a number written from a decimal (src/wire/jsonNumber.ts) is one only there.
      checkResponse?.({ status: reply.status, body: JSON.parse(text) });
      // A change to the account goes to its audit log, on the same `db` (the request's transaction when it has one).
      const action = reply.status < 300 ? auditedAction(request.operationId) : null;
      if (action) {
        const { caller, input } = request;
        const change = { action, scope: caller.accountId, actor: auditActorOf(caller), path: input.path ?? {}, body: reply.body };
        await recordChange(db, change);
      }
      return { status: reply.status, text, headers: reply.headers ?? {}, secret: Boolean(reply.secret) };
    },
  };
}
