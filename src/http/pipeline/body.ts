import type { Operation } from '../backends';
import { readJsonBody } from '../body';
import type { RequestContext } from './state';

/** The JSON body, read only for operations that declare one (415 / 413 / 400: see ../body.ts). */
export async function requestBody(ctx: RequestContext, op: Operation, limitBytes: number): Promise<unknown> {
  return op.requestBody ? readJsonBody(ctx, limitBytes) : undefined;
}
