import type { Config } from '../../config.ts';
import type { Log } from '../../log.ts';
import type { BrowserStarts } from '../browserStarts.ts';
import { SharedBrowser, type ContextLease } from './sharedBrowser.ts';

export interface ContextBrowsersOptions {
  starts: BrowserStarts;
  config: Pick<Config, 'CONTEXTS_PER_BROWSER' | 'CONTEXT_BROWSER_RECYCLE_AFTER' | 'CONTEXT_BROWSER_IDLE_S'>;
  log: Log;
  /** A shared browser died: its sessions end as crashed (and nothing else does). */
  onCrash(sessionIds: string[]): void;
  /** A session's client sent Browser.close: that session ends as stopped. */
  onBrowserClose(sessionId: string): void;
}

/**
 * The browsers that context sessions share: each holds sessions of one API key only, at most
 * CONTEXTS_PER_BROWSER at once. A session takes a place in a browser of its key that has one, else
 * a new browser is taken from the warm pool (or started). A browser is stopped once it has served
 * CONTEXT_BROWSER_RECYCLE_AFTER sessions and the last of them ended, or after CONTEXT_BROWSER_IDLE_S
 * with none; one that dies ends its own sessions as crashed.
 */
export class ContextBrowsers {
  private readonly browsers = new Set<SharedBrowser>();
  private closed = false;

  constructor(private readonly opts: ContextBrowsersOptions) {}

  /** Shared browsers running or starting: each takes one of MAX_SESSIONS' places. */
  get count(): number {
    return this.browsers.size;
  }

  /** A session of `owner` would fit in a browser that runs already (no new place needed). */
  hasRoomFor(owner: string | null): boolean {
    return [...this.browsers].some((b) => b.takes(owner, this.limits));
  }

  private get limits() {
    const { CONTEXTS_PER_BROWSER, CONTEXT_BROWSER_RECYCLE_AFTER } = this.opts.config;
    return { perBrowser: CONTEXTS_PER_BROWSER, recycleAfter: CONTEXT_BROWSER_RECYCLE_AFTER };
  }

  /**
   * A context for the session, in a browser of its key. `signal` (the session's end) and `refusable`
   * (a client's create, refused when the host is too busy to start a browser) apply only when a
   * browser has to start for it.
   */
  async open(sessionId: string, owner: string | null, signal: AbortSignal, refusable: boolean): Promise<ContextLease> {
    if (this.closed) throw new Error('the service is closing');
    const browser =
      [...this.browsers].find((b) => b.takes(owner, this.limits)) ?? this.startBrowser(owner, signal, refusable);
    browser.reserve();
    try {
      return await browser.open(sessionId);
    } catch (err) {
      browser.reserved--;
      this.settle(browser);
      throw err;
    }
  }

  /** The session's context goes; its browser stays for the next session of its key, or goes if it is done. */
  async release(sessionId: string, lease: ContextLease): Promise<void> {
    const { browser } = lease;
    // Held only while its browser is in the set (a stopped one is not) and lists the lease.
    const held = this.browsers.has(browser) && browser.sessions.get(sessionId) === lease;
    await lease.release();
    if (!held) return;
    browser.reserved--;
    this.settle(browser);
  }

  private startBrowser(owner: string | null, signal: AbortSignal, refusable: boolean): SharedBrowser {
    const tree = this.opts.starts.plain(signal, refusable);
    const browser = new SharedBrowser(owner, tree, { onBrowserClose: (id) => this.opts.onBrowserClose(id) });
    this.browsers.add(browser);
    tree.then(
      (t) =>
        t.onExit((what) => {
          this.opts.log.warn({ process: what, sessions: browser.sessions.size }, 'a shared browser died');
          this.stop(browser);
          this.opts.onCrash([...browser.sessions.keys()]);
        }),
      () => this.stop(browser),
    );
    return browser;
  }

  /** A browser with no place held: stopped now if spent or retiring, else after the idle wait. */
  private settle(browser: SharedBrowser): void {
    if (browser.reserved > 0) return;
    if (browser.retiring || browser.served >= this.limits.recycleAfter) return this.stop(browser);
    browser.idleAfter(this.opts.config.CONTEXT_BROWSER_IDLE_S * 1000, () => {
      if (browser.reserved === 0) this.stop(browser);
    });
  }

  /** Out of the set (it takes no session from now) and stopped. */
  private stop(browser: SharedBrowser): void {
    this.browsers.delete(browser);
    void browser.kill();
  }

  /** Every shared browser goes (the manager has ended their sessions). */
  async closeAll(): Promise<void> {
    this.closed = true;
    const all = [...this.browsers];
    this.browsers.clear();
    await Promise.all(all.map((b) => b.kill()));
  }
}
