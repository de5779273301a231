import type { Browser, Page } from 'playwright-core';
import { Conflict, NotFound } from '../domain/errors.ts';
import type { PrivateCdpEndpoint } from '../sessions/cdp/privateEndpoint.ts';
import type { SessionManager } from '../sessions/types.ts';
import { ToolError } from './registry.ts';

// Loaded when first used: it is about 1.4 s and 85 MB the idle server does not need.
const playwright = () => import('playwright-core');

export interface SessionBrowsersDeps {
  sessions: Pick<SessionManager, 'get' | 'onEnd'>;
  /** Where Playwright connects to a channel of the session's hub (sessions/cdp/privateEndpoint.ts). */
  endpoint: Pick<PrivateCdpEndpoint, 'url'>;
  /** Whether the session has a record at all (to tell "no such session" from "not live here"). */
  known(sessionId: string): Promise<boolean>;
}

/**
 * One Playwright connection per live session, on a channel of its hub as a run's engine has one:
 * everything a tool does passes the session's CDP policy (sessions/cdp/policy.ts) like a customer's
 * script would. Dropped when the session ends; made again on next use if it broke.
 */
export class SessionBrowsers {
  private readonly connections = new Map<string, Promise<Browser>>();

  constructor(private readonly deps: SessionBrowsersDeps) {}

  /** The live session's browser; a clear error when the session is unknown, ended, or held by another node. */
  async browser(sessionId: string): Promise<Browser> {
    const cached = this.connections.get(sessionId);
    if (cached) {
      const browser = await cached.catch(() => undefined);
      if (browser?.isConnected()) return browser;
      this.connections.delete(sessionId);
    }
    const session = this.deps.sessions.get(sessionId);
    if (!session) {
      if (!(await this.deps.known(sessionId)))
        throw new NotFound('Session', `no session has id ${sessionId} (session_list shows them)`);
      throw new Conflict(
        `Session ${sessionId} is not live on this server: it has ended (or another node of the cluster holds it); start one with session_create`,
      );
    }
    if (session.state !== 'live') throw new Conflict(`Session ${sessionId} is not live: it is starting or ending`);
    const connecting = Promise.all([playwright(), this.deps.endpoint.url(session.hub)]).then(([{ chromium }, url]) =>
      chromium.connectOverCDP(url, { timeout: 15_000 }),
    );
    this.connections.set(sessionId, connecting);
    connecting.then(
      (browser) => {
        const stop = this.deps.sessions.onEnd(sessionId, () => this.drop(sessionId));
        browser.on('disconnected', () => {
          stop();
          if (this.connections.get(sessionId) === connecting) this.connections.delete(sessionId);
        });
      },
      () => {
        if (this.connections.get(sessionId) === connecting) this.connections.delete(sessionId);
      },
    );
    return connecting;
  }

  /**
   * The page an agent works on: the newest open tab (a page the agent's click opened is where it
   * goes on), else a new one.
   */
  async page(sessionId: string): Promise<Page> {
    const browser = await this.browser(sessionId);
    const context = browser.contexts()[0];
    if (!context) throw new ToolError("The session's browser has no window open");
    const pages = context.pages().filter((p) => !p.isClosed());
    return pages.at(-1) ?? (await context.newPage());
  }

  /** Forget the session's connection (its end closes the socket anyway). */
  drop(sessionId: string): void {
    const connection = this.connections.get(sessionId);
    this.connections.delete(sessionId);
    // close() on a connectOverCDP browser disconnects; the session's browser goes on.
    void connection
      ?.then(
        (b) => b.close(),
        () => undefined,
      )
      .catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      all.map((c) =>
        c
          .then(
            (b) => b.close(),
            () => undefined,
          )
          .catch(() => undefined),
      ),
    );
  }
}
