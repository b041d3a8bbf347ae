import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import { AppError } from '../domain/errors';
import { STABLE_VERSION, VERSIONS } from '../domain/versions';

// The rendered API reference, one page per version, built by `make docs` / every build into
// dist/docs/<version>.html (scripts/build-docs.mjs). Redoc is inlined in the page, so it needs no network.

interface DocPage {
  html: Buffer;
  csp: string;
}

/**
 * Redoc hydrates from inline scripts: allow exactly those (by hash), nothing else. Its CSS-in-JS needs
 * inline styles; its search runs in a blob: worker.
 */
function cspFor(html: string): string {
  const hashes = [...html.matchAll(/<script(?:\s[^>]*)?>([\s\S]*?)<\/script>/g)]
    .filter((m) => m[1].length > 0)
    .map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src https: data:',
    'font-src data:',
    "connect-src 'self'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function docsRoutes(root: string) {
  const cache = new Map<string, DocPage>();
  const page = (version: string): DocPage => {
    let p = cache.get(version);
    if (!p) {
      const file = path.join(root, 'dist', 'docs', `${version}.html`);
      if (!fs.existsSync(file)) throw new AppError('not_found', 'The documentation is not built: run make docs.');
      const html = fs.readFileSync(file);
      p = { html, csp: cspFor(html.toString('utf8')) };
      cache.set(version, p);
    }
    return p;
  };

  /** True when it answered the request. */
  return function serveDocs(ctx: Context): boolean {
    if (ctx.path !== '/docs' && !ctx.path.startsWith('/docs/')) return false;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new AppError('method_not_allowed', `${ctx.method} is not allowed here; allowed: GET, HEAD.`, undefined, { Allow: 'GET, HEAD' });
    }
    const rest = ctx.path.slice('/docs'.length).replace(/^\/|\/$/g, '');
    if (rest === '') {
      ctx.status = 302;
      ctx.redirect(`/docs/${STABLE_VERSION}`);
      return true;
    }
    if (!(VERSIONS as readonly string[]).includes(rest)) {
      throw new AppError('not_found', `No documentation for version "${rest.slice(0, 40)}"; versions: ${VERSIONS.join(', ')}.`);
    }
    const p = page(rest);
    ctx.status = 200;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', p.csp);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = p.html;
    return true;
  };
}
