import type OpenAPIBackend from 'openapi-backend';
import type { ValidationResult } from 'openapi-backend';
import { AppError } from '../../domain/errors';
import type { Operation } from '../backends';
import type { OperationId, RequestInput } from '../handlerTypes';
import { integerQueryIssues } from '../integerQuery';
import { toIssues } from '../issues';
import { headerNameMap } from './headers';
import type { RequestContext } from './state';

interface UncheckedInput {
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
  const validation = backend.validator.validateRequest(
    { method: ctx.method, path: ctx.path, headers: ctx.headers as Record<string, string>, query: ctx.querystring, body },
    op,
  );
  if (!validation.valid) {
    throw new AppError('params_validation', undefined, toIssues(validation.errors, headerNameMap(op)));
  }
  const integerIssues = integerQueryIssues(op, () =>
    ctx.querystring ? backend.router.parseRequestQuery({ method: ctx.method, path: ctx.path, headers: {}, query: ctx.querystring }) : {},
  );
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
  const input = { path, query, body };
  if (!conformsTo<K>(validation, input)) throw new Error('unreachable: the request was validated above');
  return input;
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
