import type { Context } from 'koa';

// HTML for the hosted buyer pages. Everything that comes from data (merchant names, URLs, ids) goes
// through esc(); the pages run only the service's own script files (CSP script-src 'self'), never inline code.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]);

/** An https: URL worth putting in a page (icons, redirects), else null: never javascript: or data:. */
export function httpsUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw);
    return u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface PageOptions {
  title: string;
  body: string;
  script?: string;
  status?: number;
}

export function sendPage(ctx: Context, o: PageOptions): void {
  ctx.status = o.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(o.title)}</title>
<link rel="stylesheet" href="/assets/hosted/hosted.css">
${o.script ? `<script src="/assets/hosted/${esc(o.script)}" defer></script>\n` : ''}</head>
<body>
<main class="card">
${o.body}
</main>
<footer>Secured by paygate</footer>
</body>
</html>
`;
}

export function sendNotFoundPage(ctx: Context, message = 'This payment link is not valid, or the payment does not exist.'): void {
  sendPage(ctx, {
    title: 'Payment not found',
    status: 404,
    body: `<h1>Payment not found</h1>\n<p class="muted" id="message">${esc(message)}</p>\n<p class="muted">Check the link you were given, or ask the shop for a new one.</p>`,
  });
}
