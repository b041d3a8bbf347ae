import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import { AppError } from '../domain/errors';
import { STABLE_VERSION, VERSIONS } from '../domain/versions';
import type { DocExamples } from './docsExamples';

// The rendered API reference, one page per version, built by `make docs` / every build into
// dist/docs/<version>.html (scripts/build-docs.mjs). Redoc is inlined in the page, so it needs no network. The
// getting-started's example asset is a placeholder there, filled per instance when served (docsExamples.ts).

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

/** The page with each placeholder of `examples` replaced by its value (src/http/docsExamples.ts). */
const filled = (html: string, examples: DocExamples) =>
  Object.entries(examples).reduce((page, [placeholder, value]) => page.split(placeholder).join(value), html);

export function docsRoutes(root: string, examples: () => Promise<DocExamples> = async () => ({})) {
  // Per version: the page as built, and as last filled (the examples rarely change: one fill is kept).
  const built = new Map<string, string>();
  const served = new Map<string, { key: string; page: DocPage }>();
  const page = async (version: string): Promise<DocPage> => {
    let html = built.get(version);
    if (html === undefined) {
      const file = path.join(root, 'dist', 'docs', `${version}.html`);
      if (!fs.existsSync(file)) throw new AppError('not_found', 'The documentation is not built: run make docs.');
      html = fs.readFileSync(file, 'utf8');
      built.set(version, html);
    }
    const fill = await examples();
    const key = JSON.stringify(fill);
    const last = served.get(version);
    if (last?.key === key) return last.page;
    const text = filled(html, fill);
    const p = { html: Buffer.from(text), csp: cspFor(text) };
    served.set(version, { key, page: p });
    return p;
  };

  /** True when it answered the request. */
  return async function serveDocs(ctx: Context): Promise<boolean> {
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
    const p = await page(rest);
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
