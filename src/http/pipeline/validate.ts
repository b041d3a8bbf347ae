import type OpenAPIBackend from 'openapi-backend';
import type { ValidationResult } from 'openapi-backend';
import { params as pathParamsOf } from 'bath-es5';
import { parse as parseQuery } from 'qs';
import { AppError } from '../../domain/errors';
import type { Operation } from '../backends';
import type { OperationId, RequestInput } from '../handlerTypes';
import { integerQueryIssues } from '../integerQuery';
import { toIssues } from '../issues';
import { headerNameMap } from './headers';
import type { RequestContext } from './state';

export interface UncheckedInput {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * Contract validation (400 params_validation): path, query, headers and body against the operation of the
 * request's version, then the raw text of integer query values (integerQuery.ts). What passes is the operation's typed input, with path and
 * query values coerced to their schema types.
 */
export function validateRequest<K extends OperationId>(
  backend: OpenAPIBackend,
  op: Operation,
  _operationId: K,
  ctx: RequestContext,
  body: unknown,
): RequestInput<K> {
  const input = validatedInput(backend, op, ctx, body);
  if (!conformsTo<K>({ valid: true }, input)) throw new Error('unreachable: the request was validated above');
  return input;
}

/**
 * The same validation for an operation of any document (the hosted pages' internal one too: hosted/contract.ts):
 * path and query coerced to their schema types, untyped.
 */
export function validatedInput(backend: OpenAPIBackend, op: Operation, ctx: RequestContext, body: unknown): UncheckedInput {
  const rawQuery = () =>
    ctx.querystring ? backend.router.parseRequestQuery({ method: ctx.method, path: ctx.path, headers: {}, query: ctx.querystring }) : {};
  const fast = validInput(backend, op, ctx, body);
  if (fast) {
    const integerIssues = integerQueryIssues(op, rawQuery);
    if (integerIssues.length) throw new AppError('params_validation', undefined, integerIssues);
    return { path: fast.path, query: fast.query, body };
  }
  const validation = backend.validator.validateRequest(
    { method: ctx.method, path: ctx.path, headers: ctx.headers as Record<string, string>, query: ctx.querystring, body },
    op,
  );
  if (!validation.valid) {
    throw new AppError('params_validation', undefined, toIssues(validation.errors, headerNameMap(op)));
  }
  const integerIssues = integerQueryIssues(op, rawQuery);
  if (integerIssues.length) throw new AppError('params_validation', undefined, integerIssues);
  const coerced = validation.coerced as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  let { params: path, query } = coerced;
  if (!path || !query) {
    const parsed: { params: Record<string, unknown>; query: Record<string, unknown> } = backend.router.parseRequest(
      { method: ctx.method, path: ctx.path, headers: {}, query: ctx.querystring },
      op,
    );
    path ??= parsed.params;
    query ??= parsed.query;
  }
  return { path, query, body };
}

/**
 * The one place the contract validation's verdict becomes a type: input that passed it is operation K's
 * generated request types (handlerTypes.ts), so the handler context is built without a cast.
 */
function conformsTo<K extends OperationId>(
  validation: ValidationResult,
  _input: UncheckedInput,
): _input is UncheckedInput & RequestInput<K> {
  return validation.valid;
}

// The way above, for a valid request, without openapi-backend's parsing of each request (which compiled the
// operation's path template, copied the headers through lodash and parsed cookies on every call: a tenth of a
// status read's CPU, docs/performance.md). The same precompiled validators see the same parameter object openapi-backend's
// validateRequest builds (validation.js, router.js parseRequest, openapi-backend 5.21.2): path parameters by
// bath from the operation's template, the query by qs after dropping its first "?" with singular values of
// array parameters made arrays, the headers, the body where it is an object or the request says JSON. Any
// request this does not cover, and any request a validator rejects, takes openapi-backend's own way, so
// rejections and their issues are exactly as before. tests/unit/validate.test.ts checks both ways agree.

interface Prepared {
  /** Null where this operation's parameters need parsing this does not do (cookies, JSON or delimited query values). */
  pathParams: ((path: string) => Record<string, string> | null) | null;
  arrayQuery: Set<string>;
}

interface Parameter {
  in: string;
  name: string;
  explode?: boolean;
  content?: unknown;
  schema?: { type?: unknown };
}

const prepared = new WeakMap<Operation, Prepared>();
function prepare(op: Operation): Prepared {
  let p = prepared.get(op);
  if (!p) {
    const params = (op.parameters ?? []) as Parameter[];
    const covered = params.every((x) => 'in' in x && x.in !== 'cookie' && !x.content && x.explode !== false);
    p = {
      pathParams: covered ? pathParamsOf(op.path) : null,
      arrayQuery: new Set(params.filter((x) => x.in === 'query' && x.schema?.type === 'array').map((x) => x.name)),
    };
    prepared.set(op, p);
  }
  return p;
}

/** The coerced path and query of a request every validator of `op` accepts; null otherwise, or where not covered. */
export function validInput(
  backend: OpenAPIBackend,
  op: Operation,
  ctx: RequestContext,
  body: unknown,
): { path: Record<string, unknown>; query: Record<string, unknown> } | null {
  const p = prepare(op);
  if (!p.pathParams || (body !== undefined && typeof body !== 'object')) return null;
  let path: Record<string, unknown>;
  try {
    path = p.pathParams(trimmedPath(ctx.path)) ?? {};
  } catch {
    return null; // a malformed escape: openapi-backend's way answers it as it always did
  }
  const query = parseQuery(ctx.querystring.replace('?', '')) as Record<string, unknown>;
  for (const name of p.arrayQuery) if (typeof query[name] === 'string') query[name] = [query[name]];
  const header: Record<string, unknown> = { ...ctx.headers };
  const parameters: Record<string, unknown> = { path, query, header, cookie: {} };
  const type = String(header['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (typeof body === 'object' || type === 'application/json') parameters.requestBody = body;
  for (const validate of backend.validator.getRequestValidatorsForOperation(op.operationId!) ?? []) {
    if (!validate(parameters)) return null;
  }
  return { path, query };
}

/** openapi-backend's normalised path: trimmed, with a leading slash and no trailing ones. */
export function trimmedPath(raw: string): string {
  let path = raw.trim();
  if (!path.startsWith('/')) path = `/${path}`;
  path = path.split('?')[0].trim();
  while (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}
