import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { SCREENCAST_META, VIEW_ONLY_META, ViewCloseCode, waitingReason } from '../../contract/viewer.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { Capability, LiveSession } from '../sessions/types.ts';
import { Unavailable } from '../domain/errors.ts';
import { DIST_DIR } from '../http/dashboard.ts';
import { authorizeSession, refuseSessionToken, sessionTokenOf } from '../http/sessionAccess.ts';
import { joinSession } from '../http/sessionClients.ts';
import { bridgeVnc } from '../sessions/display/vncBridge.ts';
import { streamScreencast } from '../sessions/display/screencast.ts';
import { acceptViewerInput } from '../sessions/display/screencastControl.ts';

/** Where the queued run's session the token opens for `capability` waits for a browser, or null. */
async function waiting(app: FastifyInstance, req: FastifyRequest, capability: Capability): Promise<number | null> {
  const named = sessionTokenOf(req);
  return named ? app.runs.queue.waiting(named.id, named.token, capability) : null;
}

/** The page's own view_only option also binds the stream, so an embed cannot be switched to input. */
function asksViewOnly(req: FastifyRequest): boolean {
  const v = (req.query as Record<string, unknown>).view_only;
  return v === '' || v === '1' || v === 'true' || v === 'yes';
}

/** The viewer pages' 401: a page for a browser that opened the link, else the session URLs' own. */
function sendUnauthorized(req: FastifyRequest, reply: FastifyReply) {
  if (!(req.headers.accept ?? '').includes('text/html')) return refuseSessionToken(reply);
  return reply
    .status(401)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Not available</title><p style="font:16px system-ui;margin:2rem">This session link is invalid or the session has ended.</p>`,
    );
}

/**
 * The built viewer page. No X-Frame-Options or frame-ancestors: these pages are made to be embedded
 * on other origins. The token is in the URL, so keep it out of caches and Referer headers.
 */
function servePage(app: FastifyInstance, file: 'vnc.html' | 'live.html') {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    // A queued run's page is served too: its stream answers `waiting` until the browser is up.
    const queued = (await waiting(app, req, 'view')) !== null;
    if (!queued && !authorizeSession(app, req, 'view')) return sendUnauthorized(req, reply);
    let html: string;
    try {
      html = await fs.readFile(path.join(DIST_DIR, 'embed', file), 'utf8');
    } catch {
      throw new Unavailable(ErrorCode.notConfigured, 'The viewer is not built: run npm run build');
    }
    // Tell the VNC page a view token cannot drive, so it does not grab keyboard and pointer for nothing.
    if (file === 'vnc.html' && !authorizeSession(app, req, 'control') && (await waiting(app, req, 'control')) === null)
      html = html.replace('<head>', `<head><meta name="${VIEW_ONLY_META}" content="true">`);
    // A session with no display of its own (a context session) is shown by a screencast: the page must not speak RFB.
    // A queued run's session has no kind yet: the page loads itself again once it has one.
    if (file === 'vnc.html') {
      const kind = queued ? 'pending' : authorizeSession(app, req, 'view')?.vncSocket === null ? 'screencast' : null;
      if (kind) html = html.replace('<head>', `<head><meta name="${SCREENCAST_META}" content="${kind}">`);
    }
    return reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(html);
  };
}

/** No stream: the token opens nothing (unauthorized), or a queued run's session not started yet (waiting). */
async function rejectSocket(app: FastifyInstance, req: FastifyRequest, socket: WebSocket): Promise<void> {
  const position = await waiting(app, req, 'view').catch(() => null);
  if (position !== null) socket.close(ViewCloseCode.waiting, waitingReason(position));
  else socket.close(ViewCloseCode.unauthorized, 'unauthorized');
}

/**
 * A screencast of the session's own pages on `socket`; with `control`, the viewer's input drives the
 * tab it shows (a context session's vnc_url), else anything it sends is dropped unread.
 */
function serveScreencast(
  app: FastifyInstance,
  req: FastifyRequest,
  socket: WebSocket,
  session: LiveSession,
  view: { kind: 'vnc' | 'livestream'; control: boolean },
): void {
  const stream = streamScreencast(socket, session.hub, {
    onError: (err) => req.log.debug({ err: err.message, session: session.id }, 'screencast'),
  });
  if (view.control)
    acceptViewerInput(socket, stream, {
      onError: (err) => req.log.debug({ err: err.message, session: session.id }, 'screencast input'),
    });
  else socket.on('message', () => {});
  socket.on(
    'close',
    joinSession(app, session, view.kind, () => stream.end(ViewCloseCode.sessionEnded, 'session ended')),
  );
}

/** GET /s/:id/vnc (viewer page, or RFB over WebSocket) and GET /s/:id/live (livestream page, or frames). */
export async function sessionViewRoutes(app: FastifyInstance): Promise<void> {
  app.route({
    method: 'GET',
    url: '/s/:id/vnc',
    config: { auth: 'token', session: 'params.id' },
    handler: servePage(app, 'vnc.html'),
    wsHandler: (socket, req) => {
      const control = asksViewOnly(req) ? null : authorizeSession(app, req, 'control');
      const session = control ?? authorizeSession(app, req, 'view');
      if (!session) return rejectSocket(app, req, socket);
      // A context session's display is shared with other sessions: its view is a screencast of its own pages.
      if (session.vncSocket === null)
        return serveScreencast(app, req, socket, session, { kind: 'vnc', control: control !== null });
      const end = bridgeVnc(socket, session.vncSocket, {
        viewOnly: !control,
        onError: (err) => req.log.debug({ err: err.message, session: session.id }, 'vnc bridge'),
      });
      socket.on(
        'close',
        joinSession(app, session, 'vnc', () => end(ViewCloseCode.sessionEnded, 'session ended')),
      );
    },
  });

  app.route({
    method: 'GET',
    url: '/s/:id/live',
    config: { auth: 'token', session: 'params.id' },
    handler: servePage(app, 'live.html'),
    wsHandler: (socket, req) => {
      const session = authorizeSession(app, req, 'view');
      if (!session) return rejectSocket(app, req, socket);
      // Input from a livestream viewer is never read.
      serveScreencast(app, req, socket, session, { kind: 'livestream', control: false });
    },
  });
}
