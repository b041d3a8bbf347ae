import type { Middleware } from 'koa';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { isDashboardRole, readsOnly } from '../../domain/dashboard';
import { AppError } from '../../domain/errors';
import { testScopeOf } from '../../domain/mode';
import type { ApiVersion } from '../../domain/versions';
import { acceptInvite, createInvite, inviteInfo } from '../../usecases/dashboard/invites';
import { login } from '../../usecases/dashboard/login';
import { endSession, startSession, switchMode, type Session } from '../../usecases/dashboard/sessions';
import { listUsers, mustManagePeople, removeUser, userView, type DashboardUser } from '../../usecases/dashboard/users';
import { readJsonBody } from '../body';
import type { RequestContext, RequestState } from '../pipeline/state';
import type { SharedRateLimiter } from '../rateLimit';
import { sendJson } from '../render';
import { loginLimits } from './loginLimits';
import { clearSessionCookie, requestSession, sessionSettings, setSessionCookie } from './session';

// The partner dashboard's backend (docs/dashboard.md): sign-in, sessions and people under /dashboard/auth/, and
// /dashboard/api/<rest>, the partner API's operation at /<rest> run by the API stages (pipeline/api.ts) with a caller
// made from the session. JSON, the one error body; outside the OpenAPI documents, like /healthz. The dashboard's
// pages and scripts are served elsewhere.

export interface DashboardDeps {
  config: Config;
  db: Db;
  limiter: SharedRateLimiter;
}

const API_PREFIX = '/dashboard/api/';
/** The API version /dashboard/api answers unless the request names one. */
const PREVIEW_VERSION: ApiVersion = '2026-02-19.preview';
const VERSION_HEADERS = ['pay-version', 'wcp-version', 'api-version'];
const CREDENTIAL_HEADERS = ['api-key', 'app-id', 'client-id'];

type Route = (ctx: RequestContext, body: Record<string, unknown>) => Promise<void>;

const reply = (ctx: RequestContext, status: number, body?: unknown) => {
  ctx.set('Cache-Control', 'no-store');
  if (body === undefined) ctx.status = status;
  else sendJson(ctx, status, JSON.stringify(body));
};

const sessionBody = (s: { user: DashboardUser; csrfToken: string; mode: string }) => ({
  user: userView(s.user),
  csrfToken: s.csrfToken,
  mode: s.mode,
});

function field(issues: { field: string; message: string }[]): never {
  throw new AppError('params_validation', undefined, issues);
}

export function dashboardRoutes({ config, db, limiter }: DashboardDeps): Middleware<RequestState> {
  const session = (ctx: RequestContext) => requestSession(ctx, db, config);
  const signedIn = async (ctx: RequestContext, user: DashboardUser, status: number) => {
    const { token, session: s } = await startSession(db, user, sessionSettings(config));
    setSessionCookie(ctx, config, token);
    reply(ctx, status, sessionBody(s));
  };
  const inviteDeps = { dataKeys: config.dataKeys, publicBaseUrl: config.publicBaseUrl };

  const routes: Record<string, Partial<Record<string, Route>>> = {
    '/dashboard/auth/invite': {
      GET: async (ctx) => reply(ctx, 200, await inviteInfo(db, config.dataKeys, ctx.query.token)),
    },
    '/dashboard/auth/invite/accept': {
      POST: async (ctx, b) =>
        signedIn(ctx, await acceptInvite(db, config.dataKeys, { token: b.token, password: b.password, totpCode: b.totpCode }), 201),
    },
    '/dashboard/auth/login': {
      POST: async (ctx, b) => {
        const req = { email: b.email, password: b.password, totpCode: b.totpCode };
        await signedIn(ctx, await login(db, config.dataKeys, loginLimits(ctx, config, limiter), req), 200);
      },
    },
    '/dashboard/auth/session': {
      GET: async (ctx) => reply(ctx, 200, sessionBody(await session(ctx))),
    },
    '/dashboard/auth/logout': {
      POST: async (ctx) => {
        await endSession(db, await session(ctx));
        clearSessionCookie(ctx, config);
        reply(ctx, 204);
      },
    },
    '/dashboard/auth/mode': {
      POST: async (ctx, b) => {
        const s = await session(ctx);
        if (b.mode !== 'live' && b.mode !== 'test') field([{ field: '/mode', message: 'must be live or test' }]);
        await switchMode(db, s, b.mode);
        reply(ctx, 200, { mode: b.mode });
      },
    },
    '/dashboard/auth/users/invite': {
      POST: async (ctx, b) => {
        const { user } = await session(ctx);
        mustManagePeople(user);
        if (!isDashboardRole(b.role)) field([{ field: '/role', message: 'must be owner, developer or viewer' }]);
        const actor = { type: 'dashboard_user' as const, id: user.id };
        reply(ctx, 201, await createInvite(db, inviteDeps, { accountId: user.accountId, email: b.email, role: b.role }, actor));
      },
    },
    '/dashboard/auth/users': {
      GET: async (ctx) => reply(ctx, 200, { data: await listUsers(db, (await session(ctx)).user) }),
    },
  };
  const userRoute = /^\/dashboard\/auth\/users\/([^/]+)$/;

  async function auth(ctx: RequestContext): Promise<void> {
    ctx.state.route = 'dashboard';
    const m = routes[ctx.path] ? null : userRoute.exec(ctx.path);
    const methods: Partial<Record<string, Route>> | undefined = m
      ? {
          DELETE: async (c) => {
            await removeUser(db, (await session(c)).user, decodeURIComponent(m[1]));
            reply(c, 200, { deleted: true });
          },
        }
      : routes[ctx.path];
    if (!methods) throw new AppError('not_found');
    const route = methods[ctx.method];
    if (!route) throw new AppError('method_not_allowed');
    const raw = ctx.method === 'GET' || ctx.method === 'DELETE' ? undefined : await readJsonBody(ctx, config.bodyLimitBytes);
    if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw)))
      field([{ field: '', message: 'must be a JSON object' }]);
    await route(ctx, (raw ?? {}) as Record<string, unknown>);
  }

  return async (ctx, next) => {
    if (ctx.path.startsWith('/dashboard/auth/')) return auth(ctx);
    if (!ctx.path.startsWith(API_PREFIX)) return next();
    const s = await session(ctx);
    ctx.state.dashboardCaller = callerOf(s);
    for (const h of CREDENTIAL_HEADERS) delete ctx.req.headers[h];
    if (!VERSION_HEADERS.some((h) => ctx.get(h))) ctx.req.headers['pay-version'] = PREVIEW_VERSION;
    ctx.path = ctx.path.slice(API_PREFIX.length - 1);
    await next();
  };
}

/** The caller a session acts as through /dashboard/api: its user's account in the session's mode, a partner. */
function callerOf(s: Session) {
  const { user, mode } = s;
  return {
    accountId: mode === 'test' ? testScopeOf(user.accountId) : user.accountId,
    mode,
    keyId: user.id,
    keyType: 'partner' as const,
    readOnly: readsOnly(user.role),
    merchantIds: null,
    defaultVersion: PREVIEW_VERSION,
    dashboardUserId: user.id,
  };
}
