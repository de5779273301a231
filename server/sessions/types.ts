/**
 * The seam between the session manager (server/sessions) and its users: the session routes, the
 * VNC/livestream/CDP bridges, and the workflow runner. Implemented by sessionManager.ts.
 */
import type { SessionCdp } from './cdp/hub.ts';
import type { SessionFolders } from './cdp/policy.ts';
import type { SessionUser } from './isolation/sessionUsers.ts';
import type { EndReason, Presentation, SessionIsolation, SessionState, StorageState } from '../../contract/sessions.ts';
import type { Capability, SessionTokens, TokenHashes } from './tokens.ts';
import type { ProfileUse } from '../../contract/profileUse.ts';

// The contract owns the end reasons; the manager and its lifecycle's subscribers name them through this seam.
export type { EndReason };
// The tokens' own module declares them (it mints and checks them); this seam names them for the manager's users.
export type { Capability, SessionTokens };

export interface CreateSessionInput {
  workflowId: string;
  timeoutSeconds: number;
  proxies: boolean;
  /** Already-validated Playwright storage state, applied before the URLs are handed out. */
  storageState?: StorageState;
  webhookUrl?: string;
  metadata?: string;
  /** The session of a workflow run (RunService), not one a client asked for: RECORD_SESSIONS=runs records these. */
  forRun?: boolean;
  /** kiosk (the default): the page alone, filling the display; browser: Chromium's whole window. */
  presentation?: Presentation;
  /** The address the first page opens before the session is handed out. */
  startUrl?: string;
  /** Chromium's User-Agent, set at launch: such a session starts cold, not from the warm pool. */
  userAgent?: string;
  /** The profile it starts from, and whether it saves back to it (ProfileSource opens it). */
  profile?: ProfileUse;
  /** A browser of its own, or a context in a shared browser; unset: the server's SESSION_ISOLATION. */
  isolation?: SessionIsolation;
  /** The API key it was made with (shared browsers hold one key's sessions only); null: the service's own. */
  apiKeyId?: string | null;
}

/** Where the manager opens a session's profile (server/profiles): NotFound naming it when there is none. */
export interface ProfileSource {
  open(use: ProfileUse): Promise<ProfileOpening>;
}

/**
 * A profile chosen for a session that is about to start (server/profiles): what the manager needs
 * to know before it picks a browser, and the lease it takes once the session has its id.
 */
export interface ProfileOpening {
  readonly name: string;
  /** Its state is a browser folder laid in before Chromium starts: the warm pool cannot serve it. */
  readonly coldStart: boolean;
  /** Record the session as using the profile; Conflict when it persists and another session does. */
  take(sessionId: string): Promise<ProfileLease>;
}

/** A session's hold on a profile, from its start to its end. */
export interface ProfileLease {
  readonly name: string;
  readonly persist: boolean;
  /** Lay the profile's browser files into the session's empty user-data folder, before Chromium starts. */
  seed?(userDataDir: string, user: SessionUser | null): Promise<void>;
  /** The imported storage state to apply once the browser is up (a profile that has no browser folder yet). */
  storageState?(): Promise<StorageState>;
  /**
   * Called once as the session ends, whatever the path: with the user-data folder when the session
   * persists and its browser closed cleanly (save it; `owner` is the uid it must belong to), else
   * with why nothing is saved. Frees the profile.
   */
  end(outcome: { userDataDir: string; owner: number } | { unsaved: string }): Promise<void>;
}

export interface LiveSession {
  id: string;
  workflowId: string;
  state: SessionState;
  /** Its own browser, or a context in a shared one (what the answer's `isolation` says). */
  isolation: SessionIsolation;
  /** The browser's DevTools, over its pipe: the only way in (channels, each under the session's policy). */
  hub: SessionCdp;
  /** The session's own folders for files the page is given (uploads) and saves (downloads). */
  folders: SessionFolders;
  /** The user the session's processes run as; null when the service cannot switch users. */
  user: SessionUser | null;
  /** x11vnc's UNIX socket for this session's display; null for a context session, whose display is shared (its live view is a screencast of its own pages). */
  vncSocket: string | null;
  createdAt: Date;
  /** When it went live: its timeout counts from here. */
  liveAt: Date;
  expiresAt: Date;
  /** Created for a workflow run (CreateSessionInput.forRun). */
  forRun?: boolean;
}

export interface SessionManager {
  /** Sessions starting or live (queued runs' sessions waiting for a browser are not counted). */
  readonly active: number;
  /** closeAll() has begun: no session starts any more. */
  readonly closed: boolean;
  /** drain() was called: create() refuses (createReserved still starts the runs this node took before). */
  readonly draining: boolean;
  /** The node is draining before it stops: new sessions are refused from now, and the warm pool's browsers go. */
  drain(): void;
  /** Ids of the sessions starting or live on this node. */
  liveIds(): string[];
  /** MAX_SESSIONS' places in use: each browser session's browser, and each browser context sessions share. */
  readonly placesUsed: number;
  /** A session like `input` could start now: a place is free, or (a context session) a browser of its key has room. */
  hasRoom(input?: Pick<CreateSessionInput, 'isolation' | 'apiKeyId'>): boolean;
  /** Throws AtCapacity (with its retry-after) when hasRoom(input) is false. */
  assertRoom(input?: Pick<CreateSessionInput, 'isolation' | 'apiKeyId'>): void;
  /** Start (or take from the warm pool) a browser and hand it out. Throws Invalid or AtCapacity (domain/errors.ts) on bad input or limits. */
  create(input: CreateSessionInput): Promise<{ session: LiveSession; tokens: SessionTokens }>;
  /** Start a queued run's session under the id and token hashes its caller was answered with (never from the warm pool, whose browsers carry their own ids). */
  createReserved(input: CreateSessionInput, reservation: { id: string; hashes: TokenHashes }): Promise<LiveSession>;
  get(id: string): LiveSession | undefined;
  /**
   * The live session if `token` grants `capability` (a control token also grants view), else null.
   * Constant-time; says nothing about whether the session exists.
   */
  authorize(id: string, token: string | undefined, capability: Capability): LiveSession | null;
  /** Fresh capability tokens for a live session (kept hashed, dying with it); null when it is not live. */
  issueTokens(id: string): SessionTokens | null;
  /**
   * Give a live session a new timeout, counted from when it went live, and move its end there.
   * Throws Conflict when it is not live here (starting, ending or ended), Invalid when that end has passed.
   */
  retime(id: string, timeoutSeconds: number): Promise<LiveSession>;
  /** End one session: kill its whole process tree, remove its profile, kill its tokens. Idempotent. */
  end(id: string, reason: EndReason): Promise<void>;
  /** Subscribe to a session's end (for bridges to close their sockets); the listener is told why (undefined: it had already ended). */
  onEnd(id: string, listener: (reason: EndReason | undefined) => void): () => void;
  /** End everything; called on server close. */
  closeAll(): Promise<void>;
}
