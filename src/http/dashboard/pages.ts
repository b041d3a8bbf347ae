import fs from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { AppError } from '../../domain/errors';
import type { RequestState } from '../pipeline/state';

// The partner dashboard's single page (public/dashboard/index.html) at /dashboard, and its scripts and style sheet at
// /assets/dashboard/*. The page runs only these files (CSP script-src 'self'; no inline code, nothing from elsewhere)
// and talks only to this origin: /dashboard/auth/* and /dashboard/api/* (the session routes, elsewhere in this folder).

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'none'",
].join('; ');

const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

interface Asset {
  type: string;
  body: Buffer;
}

function loadAssets(dir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const type = ASSET_TYPES[path.extname(name)];
    if (type) out.set(name, { type, body: fs.readFileSync(path.join(dir, name)) });
  }
  return out;
}

/** GET /dashboard (and /dashboard/): the page; GET /assets/dashboard/<file>: its assets. Anything else goes on. */
export function dashboardPages(root: string): Middleware<RequestState> {
  const dir = path.join(root, 'public', 'dashboard');
  const assets = loadAssets(dir);
  const indexFile = path.join(dir, 'index.html');
  const index = fs.existsSync(indexFile) ? fs.readFileSync(indexFile) : null;
  return async (ctx, next) => {
    const get = ctx.method === 'GET' || ctx.method === 'HEAD';
    if (get && (ctx.path === '/dashboard' || ctx.path === '/dashboard/')) {
      if (!index) throw new AppError('not_found');
      ctx.state.route = 'dashboard';
      ctx.status = 200;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', CSP);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('X-Frame-Options', 'DENY');
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = index;
      return;
    }
    if (get && ctx.path.startsWith('/assets/dashboard/')) {
      ctx.state.route = 'dashboard';
      const a = assets.get(ctx.path.slice('/assets/dashboard/'.length));
      if (!a) throw new AppError('not_found');
      ctx.status = 200;
      ctx.type = a.type;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = a.body;
      return;
    }
    await next();
  };
}
