import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { SessionViewParams, SessionViewQuery } from '../../contract/viewer.ts';
import type { Capability, LiveSession } from '../sessions/types.ts';

/**
 * Who may open a session's own URLs (/s/{id}/vnc, /live and /cdp): whoever holds one of its
 * capability tokens, in the query. Never an API key; and a refusal is the same whether or not the
 * session exists.
 */

/** The session id and token the request names; null for a bad shape, which counts as no token. */
export function sessionTokenOf(req: FastifyRequest): { id: string; token: string } | null {
  const params = SessionViewParams.safeParse(req.params);
  const query = SessionViewQuery.safeParse(req.query);
  if (!params.success || !query.success || !query.data.token) return null;
  return { id: params.data.id, token: query.data.token };
}

/** The live session the request's token opens for `capability` (a control token also opens view), or null. */
export function authorizeSession(
  app: FastifyInstance,
  req: FastifyRequest,
  capability: Capability,
): LiveSession | null {
  const named = sessionTokenOf(req);
  return named ? app.sessions.authorize(named.id, named.token, capability) : null;
}

export const SESSION_TOKEN_REFUSED = 'Session token missing or invalid';

/** The 401 of a session URL, never cached (the token is in the URL). */
export function refuseSessionToken(reply: FastifyReply): FastifyReply {
  return reply
    .status(401)
    .header('cache-control', 'no-store')
    .send({ error: ErrorCode.unauthorized, message: SESSION_TOKEN_REFUSED });
}
