import type { Db } from '../db/knex';
import type { Logger } from '../logger';
import type { ChangeHub } from '../events/changeHub';
import type { Config } from '../config';
import type { ApiVersion } from '../domain/versions';
import type { Mode } from '../domain/mode';
import type { ChainWork } from '../domain/chain';
import type { ConfirmChecks } from '../usecases/gateway/confirmChecks';
import type { WebhookWork } from '../jobs/webhooks/queue';
import type { operations as PreviewOps } from '../../generated/2026-02-19.preview/types';
import type { operations as StableOps } from '../../generated/2026-02-18/types';

// Handlers are typed against the generated operations. The preview document is a superset of the stable
// one (checked in CI), so its request types cover both; the assertion below keeps that true at compile time.
export type Ops = PreviewOps;
export type OperationId = keyof Ops;
type AssertSuperset<T extends OperationId> = T;
export type StableOperationId = AssertSuperset<keyof StableOps>;

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type SuccessCode<K extends OperationId> = Extract<keyof Ops[K]['responses'], 200 | 201 | 202 | 204>;

export type Reply<K extends OperationId> = {
  /** `secret`: the body carries a secret, so a stored idempotent copy of it is sealed. */
  [S in SuccessCode<K>]: { status: S; body: Json<Ops[K]['responses'][S]>; headers?: Record<string, string>; secret?: boolean };
}[SuccessCode<K>];

type Part<K extends OperationId, P extends 'path' | 'query' | 'header'> = Ops[K] extends { parameters: { [X in P]?: infer T } }
  ? T extends undefined
    ? Record<string, never>
    : NonNullable<T>
  : Record<string, never>;
type Body<K extends OperationId> = Ops[K] extends { requestBody?: infer R } ? Json<NonNullable<R>> : undefined;

/** Who is calling: resolved by src/http/auth.ts before any handler runs. */
export interface Caller {
  /**
   * The scope the caller acts in: its account, or for a test credential its account's test scope
   * (src/domain/mode.ts). Every repository scopes by it, so a caller sees only objects of its own mode.
   */
  accountId: string;
  /** The credential's mode: `test` for a `pgk_test_` key or `pgc_test_` app, `live` otherwise (public callers). */
  mode: Mode;
  keyId: string;
  /**
   * `app` = App-Id + Client-Id (keyId is then the app id); apps and wallet keys reach the gateway only. `public`:
   * an operation open to anyone, called without credentials (accountId and keyId then name the client address).
   */
  keyType: 'partner' | 'wallet' | 'app' | 'public';
  /** A read-only API key (preview /v1/api-keys): GET operations only, else 403 key_restricted. */
  readOnly?: boolean;
  /**
   * An API key limited to these merchants (preview /v1/api-keys `merchantIds`): the operations naming one of them
   * (and the gateway's) only, else 403 key_restricted (src/http/pipeline/authenticate.ts). Absent or null: not limited.
   */
  merchantIds?: readonly string[] | null;
  /** A dashboard user calling through /dashboard/api (src/http/dashboard/routes.ts): the audit log names them. */
  dashboardUserId?: string;
}

/** What the contract validated of a request, typed as operation K declares it (src/http/pipeline/validate.ts). */
export interface RequestInput<K extends OperationId> {
  path: Part<K, 'path'>;
  query: Part<K, 'query'>;
  body: Body<K>;
}

export interface HandlerContext<K extends OperationId> extends RequestInput<K> {
  operationId: K;
  version: ApiVersion;
  caller: Caller;
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string | undefined>;
  /** A transaction when the request runs under an Idempotency-Key (the stored response commits with it). */
  db: Db;
  /**
   * False when the handler runs inside the request's transaction (under an Idempotency-Key), which commits
   * only after it returns: waiting then for a change (a long-poll) would wait for its own writes.
   */
  canWaitForChanges: boolean;
  config: Config;
  /** Wakes long-polls when a payment changes (LISTEN/NOTIFY). */
  hub: ChangeHub;
  /** Hands confirmed payments to the chain worker. */
  chainWork: ChainWork;
  /** Confirm's checks on the chain, limited and with refusals remembered (this process's). */
  confirmChecks: ConfirmChecks;
  /** Hands new webhook deliveries to the delivery workers. */
  webhookWork: WebhookWork;
  /** Runs `f` once the request's transaction has committed (at once when there is none). */
  afterCommit(f: () => Promise<void>): void;
  log: Logger;
  requestId: string;
  /** What the handler's `prepare` returned (undefined when it has none). */
  prepared: unknown;
}

/** A body sent as it is produced (a CSV export): never stored, and not checked against the contract. */
export interface StreamReply {
  status: 200;
  stream: AsyncIterable<string>;
  /** Its media type (one of the operation's in the contract). */
  type: string;
  headers?: Record<string, string>;
}

export type Handler<K extends OperationId> = ((ctx: HandlerContext<K>) => Promise<Reply<K> | StreamReply>) & {
  /**
   * Work that must not run inside the request's transaction, such as network I/O (a webhook URL's DNS): it
   * runs after contract validation and before the Idempotency-Key is claimed (not for a replay), with `db`
   * outside any transaction. Its refusals are answered like validation errors: not stored under the key.
   */
  prepare?: (ctx: HandlerContext<K>) => Promise<unknown>;
};
export type HandlerMap = { [K in OperationId]: Handler<K> };
