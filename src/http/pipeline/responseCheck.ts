import type OpenAPIBackend from 'openapi-backend';
import { AppError } from '../../domain/errors';
import type { Logger } from '../../logger';
import type { Operation } from '../backends';

/** Checks a reply before it is sent or stored. */
export type ResponseCheck = (reply: { status: number; body: unknown }) => void;

/**
 * The reply against the operation's contract (on in development and tests, VALIDATE_RESPONSES): a reply
 * that does not match is a 500, logged with what is wrong.
 */
export function responseCheck(backend: OpenAPIBackend, op: Operation, log: Logger): ResponseCheck {
  return (reply) => {
    const check = backend.validator.validateResponse(reply.body, op, reply.status);
    if (check.errors?.length) {
      log.error({ operationId: op.operationId, status: reply.status, errors: check.errors }, 'response does not match the contract');
      throw new AppError('internal_error', 'The response did not match the API contract.');
    }
  };
}
