import type { IncomingMessage } from 'node:http';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { SessionLocator } from '../../../contract/operation.ts';
import { forwardHttp, forwardingAgents } from './forwardHttp.ts';
import { forwardUpgrade } from './forwardUpgrade.ts';
import { FORWARDED_HEADER, pathToSend, targetOf, type OwnerTarget } from './target.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Where the request names the session it acts on, for routes only that session's node can
     * answer (contract Operation.session; the view and CDP routes set it by hand).
     */
    session?: SessionLocator;
    /** The route starts a browser (contract Operation.startsBrowser): when this node is full, a node with room takes it. */
    startsBrowser?: boolean;
  }
  interface FastifyInstance {
    /**
     * Pass the request to the node holding `sessionId`, for a route that finds its session on the
     * way (active_session, by workflow). False when this node answers (its own, or no live owner).
     * `body`: the request's body, for a route that read it to find the session (/api/mcp's tool calls).
     */
    passToOwner(req: FastifyRequest, reply: FastifyReply, sessionId: string, body?: Buffer): Promise<boolean>;
    /**
     * Pass the request to another node, for a route about that node (a drain). `nodeUrl` is the
     * node's id as the store holds it (ClusterRouting), never a name from the request. False when
     * this node answers: the request was forwarded to it already, or that node refused and is dead.
     */
    passToNode(req: FastifyRequest, reply: FastifyReply, nodeUrl: string): Promise<boolean>;
  }
}

/** Session ids are UUIDs: anything else is answered here (404 or 401, as the owner would) without asking where it lives. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The routes each app marked session-scoped, as registered (for tests that check none is missed). */
const scopedRoutes = new WeakMap<FastifyInstance, { method: string; url: string; session: SessionLocator }[]>();
export const sessionScopedRoutes = (app: FastifyInstance) => scopedRoutes.get(app) ?? [];

/**
 * Requests for a session held by another node of the cluster are passed on to that node, so one
 * public URL behind any load balancer serves every session. Which routes: those whose config names
 * a `session` locator (contract Operation.session through addRoute, and the view and CDP routes),
 * read from the params, query or body Fastify parsed for the route it matched, so a spelling of the
 * path (percent-encoding, absolute form) finds the same session here as on the owner, and the owner
 * gets the client's own URL. Where to: only the base URL app.cluster.ownerUrl() returns, read per
 * request; never a name from the request. A request that carries x-browserdesk-forwarded is
 * answered here, whatever the store says: it is never passed on twice (no loops), and a client
 * that sends the header only gets this node's own answer.
 *
 * Authentication. The owner authenticates every forwarded request itself, from the client's headers
 * and query as sent (the forwarded header grants nothing). Before that:
 *  - API-key routes (and key-or-signed-token ones) are checked here first: these hooks are
 *    route-level, so they run after the app's auth hook. Every node shares the store (API keys) and
 *    the secret key (signed URLs), so this node's answer is the owner's answer, and a request
 *    without a valid key costs that one lookup and is never passed on: it cannot make another node
 *    work, nor learn from a 503 or from timing which node holds a session.
 *  - Token routes (/s/:id/vnc, /live, /cdp) are checked by the owner only: a session's capability
 *    tokens are held by the node that runs it. An unauthenticated request costs this node one
 *    ownerUrl lookup (none for an id that is not a UUID) and the owner one token check, and what
 *    it hears is the owner's 401, the same as for an unknown session.
 *
 * When: a path or query id in an onRequest hook, before the body is read (an upload streams on);
 * a body id in preValidation, once the body (≤ bodyLimit) is parsed, and the bytes as received are
 * sent on. A WebSocket handshake is routed like any request (@fastify/websocket passes the
 * upgrade through the router) and tunnelled as raw TCP (forwardUpgrade.ts).
 */
export function installForwarding(app: FastifyInstance): void {
  const routes: { method: string; url: string; session: SessionLocator }[] = [];
  scopedRoutes.set(app, routes);

  // The bytes a client sent after its upgrade request: Node hands them to the 'upgrade' listeners
  // only, and @fastify/websocket keeps them to itself. Ours runs first and notes them.
  const upgradeHeads = new WeakMap<IncomingMessage, Buffer>();
  app.server.prependListener('upgrade', (req: IncomingMessage, _socket: unknown, head: Buffer) =>
    upgradeHeads.set(req, head),
  );

  // Forwarded exchanges in flight (streams and tunnels), cut when the server closes so close() does not wait on them.
  const open = new Set<() => void>();
  const track = (cut: () => void) => {
    open.add(cut);
    return () => void open.delete(cut);
  };
  const agents = forwardingAgents();
  app.addHook('preClose', async () => {
    for (const cut of [...open]) cut();
  });
  app.addHook('onClose', async () => agents.destroy());

  /** Where to send a request for session `id`, or null to answer here. */
  async function ownerOf(
    req: FastifyRequest,
    id: unknown,
  ): Promise<{ target: OwnerTarget; path: string; refused: () => Promise<boolean> } | null> {
    if (req.headers[FORWARDED_HEADER] !== undefined) return null;
    if (typeof id !== 'string' || !SESSION_ID.test(id)) return null;
    const ownerUrl = await app.cluster.ownerUrl(id);
    if (ownerUrl === null) return null;
    const target = targetOf(ownerUrl);
    const path = target && pathToSend(target, req.raw.url ?? '');
    if (!target || path === null) {
      req.log.error({ session: id }, 'cluster routing gave an owner URL that cannot be used; answering here');
      return null;
    }
    return { target, path, refused: () => app.cluster.refused(ownerUrl) };
  }

  /** Pass the request on; false when it is to be answered here after all (its owner turned out dead). */
  async function forward(
    req: FastifyRequest,
    reply: FastifyReply,
    to: { target: OwnerTarget; path: string; refused: () => Promise<boolean> },
    body?: Buffer,
  ): Promise<boolean> {
    const head = upgradeHeads.get(req.raw);
    if (head !== undefined) {
      // Nothing of Fastify's writes to this socket again: the tunnel has it.
      reply.hijack();
      forwardUpgrade(req.raw, req.raw.socket, head, { ...to, nodeId: app.cluster.nodeId, log: req.log, track });
      return true;
    }
    return forwardHttp(req, reply, { ...to, nodeId: app.cluster.nodeId, agents, body, track });
  }

  async function byPathOrQuery(this: unknown, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id =
      req.routeOptions.config.session === 'params.id'
        ? (req.params as { id?: unknown }).id
        : (req.query as { session_id?: unknown }).session_id;
    const to = await ownerOf(req, id);
    if (to) await forward(req, reply, to);
  }

  // The raw body of a body.session_id route, kept while Fastify parses it (it is within bodyLimit).
  const bodies = new WeakMap<FastifyRequest, Buffer[]>();
  async function keepBody(
    this: unknown,
    req: FastifyRequest,
    _reply: FastifyReply,
    payload: Readable,
  ): Promise<Readable> {
    if (req.headers[FORWARDED_HEADER] !== undefined) return payload;
    const chunks: Buffer[] = [];
    bodies.set(req, chunks);
    const copy = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done(null, chunk);
      },
    });
    pipeline(payload, copy, () => {});
    return copy;
  }

  async function byBody(this: unknown, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const body = req.body;
    const id =
      body !== null && typeof body === 'object' && !Array.isArray(body)
        ? (body as { session_id?: unknown }).session_id
        : undefined;
    const to = await ownerOf(req, id);
    if (to) await forward(req, reply, to, Buffer.concat(bodies.get(req) ?? []));
  }

  /**
   * Placement: a request that starts a browser, on a node with no room, goes whole to the live node
   * with the most room (its body streamed on unread: this runs before parsing). With no such node,
   * or once passed on, it is answered here: queued (a run) or 429 (a session).
   */
  // Requests this node kept that are not answered yet: their sessions do not count in `placesUsed`
  // until their body is read and checked, and requests arriving together must not all stay.
  let keptHere = 0;
  async function placeElsewhere(this: unknown, req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (req.headers[FORWARDED_HEADER] !== undefined) return;
    // A draining node keeps nothing new: it goes to a node with room as if this one were full.
    if (!app.sessions.draining && app.sessions.placesUsed + keptHere < app.config.MAX_SESSIONS) {
      keptHere++;
      reply.raw.once('close', () => keptHere--);
      return;
    }
    const nodeUrl = await app.cluster.nodeWithRoom();
    const target = nodeUrl === null ? null : targetOf(nodeUrl);
    const path = target && pathToSend(target, req.raw.url ?? '');
    if (target && path !== null)
      await forwardHttp(req, reply, { target, path, nodeId: app.cluster.nodeId, agents, track });
  }

  /** A request that starts a browser keeps a drain from ending until it is answered (NodeDrain.hold), here or by the node it went to. */
  async function holdDrain(this: unknown, _req: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.raw.once('close', app.drain.hold());
  }

  app.decorate('passToOwner', async (req: FastifyRequest, reply: FastifyReply, sessionId: string, body?: Buffer) => {
    const to = await ownerOf(req, sessionId);
    return to ? forward(req, reply, to, body) : false;
  });

  app.decorate('passToNode', async (req: FastifyRequest, reply: FastifyReply, nodeUrl: string) => {
    if (req.headers[FORWARDED_HEADER] !== undefined) return false;
    const target = targetOf(nodeUrl);
    const path = target && pathToSend(target, req.raw.url ?? '');
    if (!target || path === null) return false;
    return forwardHttp(req, reply, {
      target,
      path,
      nodeId: app.cluster.nodeId,
      agents,
      track,
      refused: () => app.cluster.refused(nodeUrl),
    });
  });

  const withHook = <H>(hooks: H | H[] | undefined, hook: H): H[] => {
    const list = hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
    // First among the route's own hooks (the CDP route authorizes in preValidation); once, should Fastify pass a route here twice.
    return list.includes(hook) ? list : [hook, ...list];
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.startsBrowser) route.onRequest = withHook(withHook(route.onRequest, placeElsewhere), holdDrain);
    const session = route.config?.session;
    if (!session) return;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, session });
    if (session === 'body.session_id') {
      route.preParsing = withHook(route.preParsing, keepBody);
      route.preValidation = withHook(route.preValidation, byBody);
    } else {
      route.onRequest = withHook(route.onRequest, byPathOrQuery);
    }
  });
}
