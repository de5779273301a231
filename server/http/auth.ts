import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError, unauthorized } from './errors.ts';
import { verifyApiKey } from '../secrets/apiKeys.ts';
import { verifyToken, type TokenScope } from '../secrets/signedTokens.ts';

/**
 * How a route is reached: `apiKey` (the default: X-API-Key), `public` (healthz, openapi.json, the
 * dashboard's files) or `token` (the session pages and sockets, which check their capability token
 * themselves).
 */
export type RouteAuth = 'apiKey' | 'public' | 'token' | 'apiKeyOrToken';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** For `apiKeyOrToken`: the scope a signed `?token=` must have, for the session in the path's `:id`. */
    tokenScope?: TokenScope;
    /** The key may also come as `Authorization: Bearer <key>` (MCP clients send that form): on the routes that say so only. */
    bearer?: boolean;
  }
  interface FastifyRequest {
    /** The id of the API key this request came with (set by the auth hook; null without one). */
    apiKeyId: string | null;
  }
  interface FastifyInstance {
    /** Every route as registered, with how it is reached (the auth tests walk it). */
    routeTable(): { method: string; url: string; auth: RouteAuth }[];
  }
}

/** The credential of an `Authorization: Bearer <credential>` header (the scheme in any case, as RFC 9110 has it). */
function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
  return m?.[1];
}

const authOf = (route: Pick<RouteOptions, 'config'>): RouteAuth =>
  (route.config as { auth?: RouteAuth } | undefined)?.auth ?? 'apiKey';

/** Mark every route registered in `app`'s scope from now on as `auth` (for plugins whose routes we do not write). */
export function markRoutes(app: FastifyInstance, auth: RouteAuth): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object), auth };
  });
}

/**
 * The key is required by the route the router matched, never by the shape of the raw URL: the
 * router decodes %61pi to api, and a prefix test on the raw URL let such spellings through. A route
 * is open only when it says so; anything else, including a route added tomorrow, needs the key.
 * Only the header counts: a key in the query string is ignored, as URLs end up in logs.
 */
export function installApiKeyAuth(app: FastifyInstance): void {
  // The options objects themselves: hooks of inner scopes (markRoutes) run after this one.
  const routes: RouteOptions[] = [];
  app.decorateRequest('apiKeyId', null);
  app.decorate('routeTable', () =>
    routes.flatMap((r) => [r.method].flat().map((method) => ({ method, url: r.url, auth: authOf(r) }))),
  );
  app.addHook('onRoute', (route) => {
    // @fastify/cors answers preflights on OPTIONS *: browsers send those without credentials.
    if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...(route.config as object), auth: 'public' };
    routes.push(route);
  });
  app.addHook('onRequest', async (req) => {
    // No route matched: the not-found handler answers, and it serves nothing protected.
    if (req.is404) return;
    const auth = authOf(req.routeOptions);
    if (auth !== 'apiKey' && auth !== 'apiKeyOrToken') return;
    const header = req.headers['x-api-key'];
    req.apiKeyId = await verifyApiKey(app.store.apiKeys, typeof header === 'string' ? header : undefined);
    if (req.apiKeyId) return;
    if (req.routeOptions.config.bearer) {
      req.apiKeyId = await verifyApiKey(app.store.apiKeys, bearerOf(req.headers.authorization));
      if (req.apiKeyId) return;
    }
    if (auth === 'apiKeyOrToken') {
      // A URL we handed out (logs_url): the token opens its scope, for the one session it names.
      const token = (req.query as { token?: unknown }).token;
      const sessionId = (req.params as { id?: unknown }).id;
      const scope = req.routeOptions.config.tokenScope;
      if (
        scope &&
        typeof token === 'string' &&
        typeof sessionId === 'string' &&
        verifyToken(app.urlSigningKey, token, scope, sessionId)
      )
        return;
      throw new AppError(
        401,
        ErrorCode.unauthorized,
        'API key or token missing or invalid: send X-API-Key, or open the URL the API handed out before its token expired',
      );
    }
    throw unauthorized();
  });
}
