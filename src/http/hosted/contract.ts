import type { Context } from 'koa';
import type OpenAPIBackend from 'openapi-backend';
import type { operations } from '../../../generated/internal/hosted';
import type { ConfirmInput } from '../../usecases/gateway/confirm';
import type { Logger } from '../../logger';
import { requestBody } from '../pipeline/body';
import { responseCheck } from '../pipeline/responseCheck';
import type { RequestContext } from '../pipeline/state';
import { validatedInput } from '../pipeline/validate';
import { Router } from '../router';

// The hosted pages' JSON routes are operations of an internal document (spec/internal/hosted.yaml, bundled to
// generated/internal/hosted.json): routed by the API's router over it, their bodies read by the API's body stage
// (415 / 413 / 400) and validated by the API's validation stage (400 params_validation with `issues`), so they
// answer bad input as the API does. What comes out is the operation's input, of the shapes that document declares;
// in development and tests (VALIDATE_RESPONSES) the reply is checked against it too, as the API's are.

type JsonBody<K extends keyof operations> = operations[K] extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : undefined;
/** What each operation's validated request body is: the types generated from spec/internal/hosted.yaml. */
type HostedBodies = { [K in keyof operations]: JsonBody<K> };
// The confirm page hands its body to the gateway's confirm: the document's shape must be what that use case takes.
type Assignable<A extends B, B> = A;
export type HostedConfirmFits = Assignable<HostedBodies['hostedPayConfirm'], Pick<ConfirmInput, 'optionId' | 'results'>>;

export type HostedOperationId = keyof HostedBodies;

export interface HostedInput<K extends HostedOperationId> {
  path: { id?: string };
  query: { maxPollMs?: number };
  body: HostedBodies[K];
}

export type HostedOperations = { [K in HostedOperationId]: (ctx: Context, input: HostedInput<K>) => Promise<void> };

const OPERATIONS: Record<HostedOperationId, true> = {
  hostedPayStatus: true,
  hostedPayOptions: true,
  hostedPayFetch: true,
  hostedPayConfirm: true,
  hostedCollectSubmit: true,
};
const isHosted = (id: string | undefined): id is HostedOperationId =>
  id !== undefined && Object.prototype.hasOwnProperty.call(OPERATIONS, id);

export class HostedContract {
  private readonly router: Router;

  constructor(
    private readonly backend: OpenAPIBackend,
    private readonly bodyLimitBytes: number,
    /** Where a reply that does not match the document is logged (a 500); null: replies are not checked. */
    private readonly checkReplies: Logger | null = null,
  ) {
    this.router = new Router(backend);
    for (const op of backend.router.getOperations()) {
      if (!isHosted(op.operationId)) throw new Error(`spec/internal/hosted.yaml: no route serves ${op.operationId}`);
    }
  }

  /**
   * Runs the request's operation with its validated input; false when the document has no operation at this
   * method and path (the request goes on, as it did before these routes were described).
   */
  async serve(ctx: Context, operations: HostedOperations): Promise<boolean> {
    const op = this.router.match(ctx.method === 'HEAD' ? 'GET' : ctx.method, ctx.path);
    if (!op || !isHosted(op.operationId)) return false;
    const operationId = op.operationId;
    (ctx as RequestContext).state.operationId = operationId; // logged and counted under its operation, as the API's
    const body = await requestBody(ctx as RequestContext, op, this.bodyLimitBytes);
    const input = validatedInput(this.backend, op, ctx as RequestContext, body);
    // Validated against the document above: the shapes HostedBodies has from it.
    await (operations[operationId] as (ctx: Context, input: unknown) => Promise<void>)(ctx, input);
    if (this.checkReplies && typeof ctx.body === 'string') {
      responseCheck(this.backend, op, this.checkReplies)({ status: ctx.status, body: JSON.parse(ctx.body) as unknown });
    }
    return true;
  }
}
