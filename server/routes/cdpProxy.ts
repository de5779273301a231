import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { authorizeSession, refuseSessionToken, sessionTokenOf } from '../http/sessionAccess.ts';
import { joinSession } from '../http/sessionClients.ts';
import { bridgeCdp } from '../sessions/cdp/bridge.ts';
import { CdpClient } from '../sessions/cdp/client.ts';
import type { LiveSession } from '../sessions/types.ts';

/** /s/:id/cdp authenticates with the session's cdp token, never an API key (http/sessionAccess.ts). */
const authorized = new WeakMap<FastifyRequest, LiveSession>();

/** Chromium's own /json/version fields, asked over the session's pipe (the browser has no HTTP port). */
async function versionOf(session: LiveSession): Promise<Record<string, unknown>> {
  const cdp = await CdpClient.open(session.hub).catch(() => null);
  if (!cdp) return {};
  try {
    const v = await cdp.send<{
      product: string;
      protocolVersion: string;
      userAgent: string;
      jsVersion: string;
      revision: string;
    }>('Browser.getVersion', {}, undefined, 5_000);
    return {
      Browser: v.product,
      'Protocol-Version': v.protocolVersion,
      'User-Agent': v.userAgent,
      'V8-Version': v.jsVersion,
      'WebKit-Version': v.revision,
    };
  } catch {
    return {};
  } finally {
    cdp.close();
  }
}

/**
 * connect_url: ws(s)://HOST/s/{id}/cdp?token=… is a WebSocket bridged to the session's own
 * Chromium browser endpoint. The token is checked before the upgrade, so a bad one is a plain 401
 * that says nothing about whether the session exists.
 */
export async function cdpProxyRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: 'GET',
    url: '/s/:id/cdp',
    config: { auth: 'token', session: 'params.id' },
    preValidation: async (req, reply) => {
      const session = authorizeSession(app, req, 'cdp');
      if (!session) return refuseSessionToken(reply);
      authorized.set(req, session);
    },
    handler: async (_req, reply) =>
      reply.status(426).header('upgrade', 'websocket').send({
        error: ErrorCode.upgradeRequired,
        message: 'connect_url is a WebSocket: use a CDP client such as Playwright connectOverCDP or Puppeteer connect',
      }),
    wsHandler: (socket, req) => {
      const session = authorized.get(req);
      if (!session) return socket.close(1008, 'unauthorized');
      const close = bridgeCdp(socket, session.hub, {
        onError: (err: Error) => req.log.debug({ err: err.message, session: session.id }, 'cdp proxy'),
      });
      socket.once(
        'close',
        joinSession(app, session, 'cdp', () => close(1001, 'session ended')),
      );
    },
  });

  // An http(s) connect_url makes Playwright's connectOverCDP and Puppeteer's browserURL ask
  // /json/version first: answer with Chromium's own, pointing back at this proxy.
  app.get(
    '/s/:id/cdp/json/version',
    { exposeHeadRoute: false, config: { auth: 'token', session: 'params.id' } },
    jsonVersion,
  );
  app.get(
    '/s/:id/cdp/json/version/',
    { exposeHeadRoute: false, config: { auth: 'token', session: 'params.id' } },
    jsonVersion,
  );
  async function jsonVersion(req: FastifyRequest, reply: FastifyReply) {
    const named = sessionTokenOf(req);
    const session = authorizeSession(app, req, 'cdp');
    if (!named || !session) return refuseSessionToken(reply);
    const info = await versionOf(session);
    const wsBase = app.publicUrl().replace(/^http/, 'ws');
    return reply.header('cache-control', 'no-store').send({
      ...info,
      webSocketDebuggerUrl: `${wsBase}/s/${session.id}/cdp?token=${encodeURIComponent(named.token)}`,
    });
  }
}
