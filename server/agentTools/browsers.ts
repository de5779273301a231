import type { Browser, Page } from 'playwright-core';
import { Conflict, NotFound } from '../domain/errors.ts';
import type { PrivateCdpEndpoint } from '../sessions/cdp/privateEndpoint.ts';
import type { SessionManager } from '../sessions/types.ts';
import { SessionTabs } from './tabs.ts';

// Loaded when first used: it is about 1.4 s and 85 MB the idle server does not need.
const playwright = () => import('playwright-core');

export interface SessionBrowsersDeps {
  sessions: Pick<SessionManager, 'get' | 'onEnd'>;
  /** Where Playwright connects to a channel of the session's hub (sessions/cdp/privateEndpoint.ts). */
  endpoint: Pick<PrivateCdpEndpoint, 'url'>;
  /** Whether the session has a record at all (to tell "no such session" from "not live here"). */
  known(sessionId: string): Promise<boolean>;
  /** The session's selected tab changed: refs of its snapshot name elements of another page now. */
  onTabChange(sessionId: string): void;
}

/**
 * One Playwright connection per live session, on a channel of its hub as a run's engine has one:
 * everything a tool does passes the session's CDP policy (sessions/cdp/policy.ts) like a customer's
 * script would. Dropped when the session ends; made again on next use if it broke.
 */
export class SessionBrowsers {
  private readonly connections = new Map<string, Promise<Browser>>();
  /** The tabs of each connection, as the tools see them (tabs.ts). */
  private readonly tabSets = new WeakMap<Browser, SessionTabs>();

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
        const tabs = new SessionTabs(browser, () => this.deps.onTabChange(sessionId));
        this.tabSets.set(browser, tabs);
        const stop = this.deps.sessions.onEnd(sessionId, () => this.drop(sessionId));
        browser.on('disconnected', () => {
          stop();
          tabs.dispose();
          if (this.connections.get(sessionId) === connecting) this.connections.delete(sessionId);
        });
      },
      () => {
        if (this.connections.get(sessionId) === connecting) this.connections.delete(sessionId);
      },
    );
    return connecting;
  }

  /** The session's tabs, as the tools see them. */
  async tabs(sessionId: string): Promise<SessionTabs> {
    const browser = await this.browser(sessionId);
    // Set as soon as the connection resolves, before any caller awaiting it runs.
    return this.tabSets.get(browser)!;
  }

  /** The tabs of a session this node is connected to already, without connecting. */
  async connectedTabs(sessionId: string): Promise<SessionTabs | undefined> {
    const browser = await this.connections.get(sessionId)?.catch(() => undefined);
    return browser ? this.tabSets.get(browser) : undefined;
  }

  /**
   * The page an agent works on: the session's selected tab (a popup or tab the page opened is
   * selected as it opens), else a new one.
   */
  async page(sessionId: string): Promise<Page> {
    return (await this.tabs(sessionId)).current();
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
