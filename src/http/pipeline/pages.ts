import type { Middleware } from 'koa';
import { docsRoutes } from '../docs';
import { docExamples } from '../docsExamples';
import { hostedRoutes, HostedDeps } from '../hosted/routes';
import type { RequestState } from './state';

/**
 * Non-API routes, answered before API routing: the rendered API reference (/docs/<version>) and the hosted
 * buyer pages. Anything else goes on to the API stages.
 */
export function pages(hosted: HostedDeps): Middleware<RequestState> {
  const serveDocs = docsRoutes(hosted.root, docExamples(hosted.root, hosted.db, hosted.chainWork));
  const serveHosted = hostedRoutes(hosted);
  return async (ctx, next) => {
    if (await serveDocs(ctx)) {
      ctx.state.route = 'docs';
      return;
    }
    if (await serveHosted(ctx)) {
      ctx.state.route = 'hosted';
      return;
    }
    await next();
  };
}
