import type OpenAPIBackend from 'openapi-backend';
import type { Operation } from 'openapi-backend';

// openapi-backend's matchOperation rebuilds its operation list and compiles a RegExp per path on every
// call (docs/performance.md). This router precompiles once, with the same rules: an exact path wins,
// then templated paths, most static characters first; a concrete path shadows the templates it would match.

interface Route {
  method: string;
  regex: RegExp;
  staticLength: number;
  op: Operation;
}

export class Router {
  private readonly exact = new Map<string, Map<string, Operation>>();
  private readonly templated: Route[] = [];

  constructor(backend: OpenAPIBackend) {
    for (const op of backend.router.getOperations()) {
      const method = op.method.toUpperCase();
      if (!op.path.includes('{')) {
        if (!this.exact.has(op.path)) this.exact.set(op.path, new Map());
        this.exact.get(op.path)!.set(method, op);
        continue;
      }
      const pattern = op.path
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      this.templated.push({ method, regex: new RegExp(`^${pattern}$`), staticLength: op.path.replace(/\{[^}]+\}/g, '').length, op });
    }
    this.templated.sort((a, b) => b.staticLength - a.staticLength);
  }

  private normalise(path: string) {
    return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  }

  match(method: string, rawPath: string): Operation | undefined {
    const path = this.normalise(rawPath);
    const m = method.toUpperCase();
    // A concrete path shadows templated ones (OpenAPI): /v1/merchants/payments is never /v1/merchants/{id}.
    const exact = this.exact.get(path);
    if (exact) return exact.get(m);
    return this.templated.find((r) => r.method === m && r.regex.test(path))?.op;
  }

  /** Methods that exist for this path (for 405 and Allow). */
  allowed(rawPath: string): string[] {
    const path = this.normalise(rawPath);
    const exact = this.exact.get(path);
    if (exact) return [...exact.keys()];
    return [...new Set(this.templated.filter((r) => r.regex.test(path)).map((r) => r.method))];
  }
}
