/**
 * The guard of the sandbox's admin surfaces, the control plane (`/__sandbox`) and the console
 * (`/console`), in one place so every admin route or page reuses it. It answers three questions:
 *
 * - Who: with an admin token, `Authorization: Bearer <token>` or a signed admin session cookie that the
 *   console login issues (HttpOnly, SameSite=Strict; it never holds the token itself).
 * - From where: a write (any method but GET/HEAD/OPTIONS) sent by a browser must be same-origin:
 *   `Sec-Fetch-Site` same-origin or none, and an `Origin` equal to the sandbox's own origin, whose host is a
 *   loopback name, an IP literal or the public URL's host (a DNS-rebound name is refused). Clients that are
 *   not browsers (curl, test suites) send neither header and pass.
 * - How: control-plane writes refuse the content types a cross-site HTML form or a no-CORS fetch can send
 *   (form, multipart, text/plain): they take JSON or no body. Console forms carry a per-session CSRF token.
 *
 * The sessions themselves are signed by admin/admin-sessions.ts.
 */
import { getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { ApiError } from '../errors/api-error.ts';
import { type AdminRole, type AdminSession, sameSecret, sameText } from '../admin/admin-sessions.ts';
import { admitNamespace, type AppContext, type AppEnv } from './context.ts';
import { countWrongGuess } from './middleware.ts';

export const ADMIN_SESSION_COOKIE = 'idv_sandbox_session';
/** The form field (or `X-CSRF-Token` header) that carries a console session's CSRF token. */
export const CSRF_FIELD = 'csrf';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What a cross-site form or a no-CORS fetch can send without a preflight. */
const SIMPLE_CONTENT_TYPE = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data|text\/plain)\b/i;
const JSON_CONTENT_TYPE = /^\s*application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/**
 * Why a write is cross-site, or undefined when it is same-origin or not from a browser. `surface` names
 * who refuses, for the sentence ("The console and the control plane accept writes only from…").
 */
export function crossSiteRefusal(c: AppContext, surface = 'The console and the control plane'): string | undefined {
  const site = c.req.header('sec-fetch-site');
  const rule = `${surface} accept writes only from their own pages or from clients that are not browsers.`;
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `Cross-site request refused (Sec-Fetch-Site: ${site.slice(0, 40)}): ${rule}`;
  }
  const origin = c.req.header('origin');
  if (origin === undefined) return undefined;
  const own = ownOrigins(c);
  if (own.has(origin)) return undefined;
  return `Cross-site request refused: Origin "${origin.slice(0, 120)}" is not this sandbox (${[...own].join(', ')}). ${rule}`;
}

/** The public URL's origin, and the origin the request was addressed to when its host cannot be a rebound DNS name. */
function ownOrigins(c: AppContext): Set<string> {
  const publicOrigin = new URL(c.get('platform').urls.base);
  const origins = new Set([publicOrigin.origin]);
  const host = c.req.header('host');
  if (host !== undefined) {
    try {
      const addressed = new URL(`${new URL(c.req.url).protocol}//${host}`);
      if (isTrustedHostname(addressed.hostname, publicOrigin.hostname)) origins.add(addressed.origin);
    } catch {
      // A Host header that is not a host: only the public origin counts.
    }
  }
  return origins;
}

function isTrustedHostname(hostname: string, publicHostname: string): boolean {
  return hostname === publicHostname || hostname === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[');
}

function refuseCrossSite(c: AppContext): void {
  if (READ_METHODS.has(c.req.method)) return;
  const refusal = crossSiteRefusal(c);
  if (refusal) throw new ApiError(403, refusal);
}

/**
 * Whether `presented` is the admin token. A wrong one counts against the client's address (the socket's):
 * past ADMIN_TOKEN_GUESSES_PER_MINUTE in a minute, ApiError 429 with Retry-After until the minute ends.
 * The right token is never counted nor slowed.
 */
export function isAdminToken(c: AppContext, presented: string, token: string): boolean {
  if (sameSecret(presented, token)) return true;
  countWrongGuess(
    c,
    c.get('platform').adminTokenGuesses,
    'wrong admin tokens',
    'Use the admin token the sandbox was started with (--admin-token or IDV_SANDBOX_ADMIN_TOKEN); the right token is accepted meanwhile.',
  );
  return false;
}

function bearerIsAdmin(c: AppContext, token: string): boolean {
  const bearer = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return bearer !== undefined && isAdminToken(c, bearer, token);
}

const ADMIN_TOKEN_REQUIRED = new ApiError(401, 'Admin token required', {
  detail: 'This sandbox was started with an admin token: send it as "Authorization: Bearer <token>", or sign in at /console/login.',
});

/** The control plane: same-origin writes, the admin token (or an admin console session), JSON bodies only. */
export function controlPlaneGuard() {
  return createMiddleware<AppEnv>(async (c, next) => {
    refuseCrossSite(c);
    const platform = c.get('platform');
    const token = platform.settings.adminToken;
    if (token !== undefined && !bearerIsAdmin(c, token) && platform.adminSessions.read(getCookie(c, ADMIN_SESSION_COOKIE))?.role !== 'admin') {
      throw ADMIN_TOKEN_REQUIRED;
    }
    const contentType = c.req.header('content-type');
    if (
      !READ_METHODS.has(c.req.method) &&
      contentType !== undefined &&
      contentType.trim() !== '' &&
      (SIMPLE_CONTENT_TYPE.test(contentType) || !JSON_CONTENT_TYPE.test(contentType))
    ) {
      throw new ApiError(
        415,
        `Unsupported Content-Type "${contentType.slice(0, 80)}": control-plane calls take application/json or no body (form and text bodies are refused, so that no web page can forge them).`,
      );
    }
    admitNamespace(c);
    return next();
  });
}

/**
 * The console: same-origin writes; with an admin token, an admin session (from /console/login) or the
 * bearer token; without one, a visitor session issued on the first page view. Every console form posts
 * the session's CSRF token (`csrfTokenOf`). The login page and its form need no session.
 */
export function consoleGuard() {
  return createMiddleware<AppEnv>(async (c, next) => {
    refuseCrossSite(c);
    if (c.req.path === '/console/login') return next();
    const platform = c.get('platform');
    const token = platform.settings.adminToken;
    // A bearer token cannot come from a cross-site form, so it needs no CSRF token.
    const bearer = token !== undefined && bearerIsAdmin(c, token);
    let session = platform.adminSessions.read(getCookie(c, ADMIN_SESSION_COOKIE));
    if (token !== undefined && session?.role !== 'admin') session = undefined;
    if (token !== undefined && !session && !bearer) {
      // A person at a browser is sent to the login form, which brings them back here; other clients get the 401.
      if (READ_METHODS.has(c.req.method) && acceptsHtml(c)) return c.redirect(consoleLoginUrl(c.req.path + new URL(c.req.url).search), 303);
      throw ADMIN_TOKEN_REQUIRED;
    }
    if (READ_METHODS.has(c.req.method)) {
      session ??= startConsoleSession(c, token === undefined ? 'visitor' : 'admin');
    } else if (!bearer) {
      const presented = c.req.header('x-csrf-token') ?? (await formField(c, CSRF_FIELD));
      if (!session || presented === undefined || !sameText(presented, session.csrfToken)) {
        throw new ApiError(403, 'The console form is missing its CSRF token or its session expired: reload the console page and submit the form again.');
      }
    }
    c.set('adminSession', session);
    admitNamespace(c);
    return next();
  });
}

const acceptsHtml = (c: AppContext) => /text\/html/i.test(c.req.header('accept') ?? '');

/** The login form's address, remembering the console page to return to. */
export function consoleLoginUrl(returnTo: string): string {
  return `/console/login?next=${encodeURIComponent(returnTo)}`;
}

/** Where a login may send the browser back to: a console page of this sandbox, never another site. */
export function consoleReturnPath(next: string | undefined): string {
  return next !== undefined && /^\/console(?:[/?]|$)/.test(next) && !next.includes('\\') ? next : '/console';
}

/** Sets the session cookie of a new console session (the login, or a first page view without an admin token). */
export function startConsoleSession(c: AppContext, role: AdminRole): AdminSession {
  const { session, cookie } = c.get('platform').adminSessions.issue(role);
  setCookie(c, ADMIN_SESSION_COOKIE, cookie, { httpOnly: true, sameSite: 'Strict', path: '/' });
  return session;
}

/** The CSRF token every console form of this request's page must carry in the `csrf` field. */
export function csrfTokenOf(c: AppContext): string {
  const session = c.get('adminSession');
  if (!session) throw new Error('console route without consoleGuard');
  return session.csrfToken;
}

async function formField(c: AppContext, name: string): Promise<string | undefined> {
  if (!SIMPLE_CONTENT_TYPE.test(c.req.header('content-type') ?? '') || /text\/plain/i.test(c.req.header('content-type') ?? '')) return undefined;
  const value = (await c.req.parseBody())[name];
  return typeof value === 'string' ? value : undefined;
}
