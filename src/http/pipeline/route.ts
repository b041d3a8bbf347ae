import { AppError } from '../../domain/errors';
import type { ApiVersion } from '../../domain/versions';
import type { Backends, Operation } from '../backends';
import { Router } from '../router';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Method + path -> the operation of an API version, through each version's precompiled router (router.ts). */
export class Routes {
  private readonly routers: Record<ApiVersion, Router>;

  constructor(backends: Backends) {
    this.routers = Object.fromEntries(Object.entries(backends).map(([v, b]) => [v, new Router(b)])) as Record<ApiVersion, Router>;
  }

  /** The operation at `method path` in `version`; 404 when there is none, 405 (with Allow) for a wrong method. */
  match(version: ApiVersion, method: string, path: string): Operation {
    const router = this.routers[version];
    const op = router.match(method, path);
    if (!op) throw notRoutable(router, method, path);
    return op;
  }
}

function notRoutable(router: Router, method: string, path: string): AppError {
  const allowed = METHODS.map((m) => m.toUpperCase()).filter((m) => router.allowed(path).includes(m));
  if (allowed.length && !allowed.includes(method.toUpperCase())) {
    return new AppError('method_not_allowed', `${method} is not allowed here; allowed: ${allowed.join(', ')}.`, undefined, {
      Allow: allowed.join(', '),
    });
  }
  return new AppError('not_found', `No operation at ${method} ${path.slice(0, 200)}.`);
}
