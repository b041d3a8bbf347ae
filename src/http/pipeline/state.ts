import type { ParameterizedContext } from 'koa';
import type { ApiVersion } from '../../domain/versions';
import type { Authenticated } from '../auth';

/** What a request carries on `ctx.state`: set by the stages, read by the envelope for the log and metrics. */
export interface RequestState {
  requestId: string;
  version: ApiVersion;
  operationId?: string;
  /** Name of a non-API route (healthz, metrics, ...): the metrics label when there is no operationId. */
  route?: string;
  /** The caller of a request through /dashboard/api, made from its session (src/http/dashboard/routes.ts). */
  dashboardCaller?: Authenticated;
}

export type RequestContext = ParameterizedContext<RequestState>;
