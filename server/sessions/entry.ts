import type { Log } from '../log.ts';
import { Invalid } from '../domain/errors.ts';
import type { NewSession } from '../store/sessions.ts';
import type { SessionIsolation } from '../../contract/sessions.ts';
import type { LiveDisplay } from './lifecycle.ts';
import type { BrowserTree } from './browser/tree.ts';
import type { ContextLease } from './contexts/sharedBrowser.ts';
import { hashColumns, SessionTokenSets, type TokenHashes } from './tokens.ts';
import type { CreateSessionInput, EndReason, LiveSession } from './types.ts';

type EndListener = (reason: EndReason | undefined) => void;

/** A session as the manager holds it, from the create that counts it to the end that drops it. */
export interface Entry {
  workflowId: string;
  /** What it runs in (a browser session's browser takes a place of MAX_SESSIONS; see placesUsed). */
  isolation: SessionIsolation;
  /** Set once the browser is up; until then the session is starting. */
  session?: LiveSession;
  tokens: SessionTokenSets;
  /** Its own browser, once started (a browser session). */
  tree?: BrowserTree;
  /** Its context in a shared browser, once made (a context session). */
  context?: ContextLease;
  timer?: NodeJS.Timeout;
  webhookUrl?: string;
  metadata?: string;
  endListeners: Set<EndListener>;
  ending?: Promise<void>;
  /** Why it ends, once ending: told to listeners that subscribe late. */
  endReason?: EndReason;
  /**
   * Aborted by end(), with refusals' endedWhileStarting as its reason: the one guard of a start (its
   * wait for a place, its start steps, the moment it would go live).
   */
  readonly stop: AbortController;
  /** It waits for its turn in the start gate, before anything is recorded: end() cancels the wait alone. */
  waiting?: boolean;
}

export const newEntry = (input: CreateSessionInput, isolation: SessionIsolation, hashes: TokenHashes): Entry => ({
  workflowId: input.workflowId,
  isolation,
  tokens: new SessionTokenSets(hashes),
  webhookUrl: input.webhookUrl,
  metadata: input.metadata,
  endListeners: new Set(),
  stop: new AbortController(),
});

/** Tell the listeners of the end, once; a listener that throws is logged and the rest are still told. */
export function tellEndListeners(entry: Entry, reason: EndReason, log: Log): void {
  for (const l of entry.endListeners) {
    try {
      l(reason);
    } catch (err) {
      log.warn({ err }, 'session end listener failed');
    }
  }
  entry.endListeners.clear();
}

/** The session's record as it starts: its timeout counted from now until it goes live. */
export const newSessionRow = (
  id: string,
  input: CreateSessionInput,
  isolation: SessionIsolation,
  hashes: TokenHashes,
  now: Date,
): NewSession => ({
  id,
  workflow_id: input.workflowId,
  proxies: input.proxies ? 1 : 0,
  timeout_seconds: input.timeoutSeconds,
  webhook_url: input.webhookUrl ?? null,
  metadata: input.metadata ?? null,
  isolation,
  ...hashColumns(hashes),
  created_at: now.toISOString(),
  expires_at: new Date(now.getTime() + input.timeoutSeconds * 1000).toISOString(),
});

/** What a live session runs in: a browser of its own, or a context in a shared one. */
export type SessionHost = Pick<LiveSession, 'isolation' | 'hub' | 'folders' | 'user' | 'vncSocket'>;

export const treeHost = (tree: BrowserTree): SessionHost => ({
  isolation: 'browser',
  hub: tree.hub,
  folders: { uploads: tree.dirs.uploads, downloads: tree.dirs.downloads },
  user: tree.user,
  vncSocket: tree.vncSocket,
});

export const contextHost = (lease: ContextLease): SessionHost => ({
  isolation: 'context',
  hub: lease.cdp,
  folders: lease.folders,
  user: lease.user,
  vncSocket: null,
});

/** The session handed out once its browser is ready: live from now, its timeout counting from here. */
export function liveSessionOf(id: string, input: CreateSessionInput, host: SessionHost, createdAt: Date): LiveSession {
  const live = new Date();
  return {
    id,
    workflowId: input.workflowId,
    state: 'live',
    ...host,
    createdAt,
    liveAt: live,
    expiresAt: new Date(live.getTime() + input.timeoutSeconds * 1000),
    forRun: input.forRun === true,
  };
}

/** The display a live session's tree shows, for the lifecycle's live phase (a screen recorder reads it); null when headless. */
export const liveDisplayOf = (tree: BrowserTree): LiveDisplay | null =>
  tree.display && {
    display: tree.display.name,
    xauthority: tree.dirs.xauthority,
    ipc: tree.ipcNamespace,
  };

/** A live session's new end, `timeoutSeconds` from when it went live: Invalid when that has passed. */
export function laterExpiry(live: LiveSession, timeoutSeconds: number): Date {
  const expiresAt = new Date(live.liveAt.getTime() + timeoutSeconds * 1000);
  if (expiresAt.getTime() > Date.now()) return expiresAt;
  const lived = Math.floor((Date.now() - live.liveAt.getTime()) / 1000);
  throw new Invalid([
    { path: 'timeout', message: `timeout must reach past now: the session has been live ${lived} seconds` },
  ]);
}
