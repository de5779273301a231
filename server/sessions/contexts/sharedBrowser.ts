import type { BrowserTree } from '../browser/tree.ts';
import type { SessionCdp } from '../cdp/hub.ts';
import type { SessionFolders } from '../cdp/policy.ts';
import type { SessionUser } from '../isolation/sessionUsers.ts';
import { contextFoldersOf, makeContextFolders, removeContextFolders } from './contextFolders.ts';

/** A context session's part of a shared browser, from its context's creation to its disposal. */
export interface ContextLease {
  readonly browserContextId: string;
  /** The browser it is in. */
  readonly browser: SharedBrowser;
  /** The session's DevTools: channels that see and drive its context only. */
  readonly cdp: SessionCdp;
  readonly folders: SessionFolders;
  /** The shared browser's user (every context of the browser runs as it). */
  readonly user: SessionUser | null;
  /** Its browser is up and its context not yet disposed. */
  readonly alive: boolean;
  /** Dispose the context and remove the session's folders. Idempotent. */
  release(): Promise<void>;
  /** The session has been handed out: its browser makes the next context ahead now. */
  handedOut(): void;
}

/** A context made for a session, with the folders its downloads go to. */
interface MadeContext {
  id: string;
  folders: SessionFolders;
}

/** What a shared browser tells its sessions' owner (the manager, through ContextBrowsers). */
export interface ContextEvents {
  /** The session's client sent Browser.close: it ends that session only. */
  onBrowserClose(sessionId: string): void;
}

/**
 * One browser that sessions of one API key share, each in a browser context of its own. Counts the
 * places taken in it (a create reserves one before its context exists, so concurrent creates never
 * overfill it) and the sessions it has served, for recycling.
 */
export class SharedBrowser {
  /** Places reserved or held: at most `perBrowser`. */
  reserved = 0;
  /** Places it has given since it started, held or not (it is recycled after CONTEXT_BROWSER_RECYCLE_AFTER). */
  served = 0;
  /** It takes no new session: spent, crashed or closing; it goes once its last session ends. */
  retiring = false;
  /** The sessions in it now, by id. */
  readonly sessions = new Map<string, ContextLease>();
  private idleTimer: NodeJS.Timeout | undefined;
  /** A context made ahead for the key's next session (takeContext); it goes with the browser. */
  private spare: Promise<MadeContext> | undefined;

  constructor(
    /** The API key whose sessions it holds (null: sessions made without one, such as the service's own). */
    readonly owner: string | null,
    readonly tree: Promise<BrowserTree>,
    private readonly events: ContextEvents,
  ) {}

  /** Another session of `owner` may take a place here now. */
  takes(owner: string | null, limits: { perBrowser: number; recycleAfter: number }): boolean {
    return (
      !this.retiring && this.owner === owner && this.reserved < limits.perBrowser && this.served < limits.recycleAfter
    );
  }

  /** A place for a session about to open its context. */
  reserve(): void {
    this.reserved++;
    this.served++;
  }

  /**
   * A fresh off-the-record context for `sessionId`, with its first page (Playwright and Puppeteer
   * find the session's page there) and its own folders. The place was reserved by the caller.
   */
  async open(sessionId: string): Promise<ContextLease> {
    clearTimeout(this.idleTimer);
    const tree = await this.tree;
    if (!tree.alive) throw new Error('the shared browser is not running');
    const { id, folders } = await this.takeContext(tree);
    let released: Promise<void> | undefined;
    const lease: ContextLease = {
      browserContextId: id,
      browser: this,
      cdp: tree.hub.scoped({
        browserContextId: id,
        folders,
        onBrowserClose: () => this.events.onBrowserClose(sessionId),
      }),
      folders,
      user: tree.user,
      get alive() {
        return released === undefined && tree.alive;
      },
      handedOut: () => this.makeAhead(tree),
      release: () =>
        (released ??= (async () => {
          await this.dispose(tree, id);
          removeContextFolders(folders);
          this.sessions.delete(sessionId);
        })()),
    };
    this.sessions.set(sessionId, lease);
    return lease;
  }

  /**
   * A fresh context with its blank first page and its folders: the one made ahead (nothing has
   * happened in it yet), else one made now; either way the next is made ahead for the key's next
   * session. Most of a create's time on demand (88 ms p50, bench/arena.ts) was the context's first
   * window and its first Browser.setDownloadBehavior (about 50 ms; later ones take a few), so the
   * next create finds both done.
   */
  private async takeContext(tree: BrowserTree): Promise<MadeContext> {
    const ahead = this.spare;
    this.spare = undefined;
    return (await ahead?.catch(() => undefined)) ?? (await this.newContext(tree));
  }

  /**
   * The next context, made ahead once a create has been answered: made while a create is under way,
   * its window held the browser's main thread and slowed that create's own calls (Browser.getVersion
   * took 70 to 130 ms instead of a few).
   */
  private makeAhead(tree: BrowserTree): void {
    if (this.spare || this.retiring || !tree.alive) return;
    const next = this.newContext(tree);
    next.catch(() => undefined); // a failure here is the next create's: it makes one of its own
    this.spare = next;
  }

  /** A context, its first page, and its folders, its downloads already pointed there. */
  private async newContext(tree: BrowserTree): Promise<MadeContext> {
    const { browserContextId: id } = (await tree.hub.call('Target.createBrowserContext', {
      disposeOnDetach: false,
    })) as { browserContextId: string };
    const folders = contextFoldersOf(tree.dirs.root, id);
    try {
      makeContextFolders(folders, tree.user);
      await Promise.all([
        tree.hub.call('Target.createTarget', { url: 'about:blank', browserContextId: id }),
        tree.hub.call('Browser.setDownloadBehavior', {
          behavior: 'allowAndName',
          downloadPath: folders.downloads,
          browserContextId: id,
        }),
      ]);
    } catch (err) {
      await this.dispose(tree, id);
      removeContextFolders(folders);
      throw err;
    }
    return { id, folders };
  }

  /** Its pages and storage go with it; a browser that died has nothing left to dispose. */
  private async dispose(tree: BrowserTree, browserContextId: string): Promise<void> {
    if (tree.alive) await tree.hub.call('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  }

  /** After `ms` with no session, `onIdle` (the pool stops it); a new session cancels the wait. */
  idleAfter(ms: number, onIdle: () => void): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(onIdle, ms).unref();
  }

  /** Stop the browser (its processes, display and folders). Its sessions have ended or end by its exit. */
  async kill(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.retiring = true;
    const tree = await this.tree.catch(() => undefined);
    await tree?.kill();
  }
}
