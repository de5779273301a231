import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Log } from '../log.ts';
import type { Config } from '../config.ts';
import type { Bus } from '../events/bus.ts';
import { AtCapacity, Conflict, Invalid, isDomainError, Unavailable } from '../domain/errors.ts';
import { ErrorCode, type Issue } from '../../contract/errors.ts';
import { PRESENTATION_DEFAULT, type StorageState } from '../../contract/sessions.ts';
import type { CrashedSession, SessionsRepo } from '../store/sessions.ts';
import { CdpClient } from './cdp/client.ts';
import { removeStaleDisplayFiles } from './display/display.ts';
import { Isolation } from './isolation/isolation.ts';
import { removeAllSessionDirs } from './isolation/sessionDirs.ts';
import { killStartedBy, killTree, startedBy } from './browser/processes.ts';
import { applyPresentation } from './browser/presentation.ts';
import { openStartUrl } from './browser/startUrl.ts';
import { applyStorageState } from './storageState.ts';
import { grants, hashColumns, mintTokens, type TokenHashes } from './tokens.ts';
import { BrowserTree, type TreeOptions } from './browser/tree.ts';
import { StartGate } from './browser/startGate.ts';
import type {
  Capability,
  CreateSessionInput,
  EndReason,
  LiveSession,
  ProfileLease,
  ProfileOpening,
  ProfileSource,
  SessionLifecycleHooks,
  SessionManager,
  SessionTokens,
} from './types.ts';
import { WarmPool } from './warmPool.ts';

export interface ManagerOptions {
  config: Pick<
    Config,
    | 'dataDir'
    | 'CHROMIUM_PATH'
    | 'WARM_POOL_SIZE'
    | 'WARM_POOL_MAX'
    | 'MAX_SESSIONS'
    | 'BROWSER_STARTS_AT_ONCE'
    | 'PROXY_URL'
    | 'SESSION_UIDS'
    | 'BROWSER_ALLOW_PRIVATE_NETWORKS'
  >;
  repo: SessionsRepo;
  bus: Bus;
  log: Log;
  /** Opens the profile a session starts from; without it, a session that names one is refused. */
  profiles?: ProfileSource;
}

interface Entry {
  workflowId: string;
  /** Set once the browser is up; until then the session is starting. */
  session?: LiveSession;
  hashes: TokenHashes;
  /** Tokens issued later (a workflow's active_session): they die with the session like the first ones. */
  moreHashes: TokenHashes[];
  tree?: BrowserTree;
  timer?: NodeJS.Timeout;
  webhookUrl?: string;
  metadata?: string;
  endListeners: Set<(reason: EndReason | undefined) => void>;
  ending?: Promise<void>;
  /** Why it ends, once ending: told to listeners that subscribe late. */
  endReason?: EndReason;
  /** The profile it started from, held until it ends (saved back first when it persists). */
  lease?: ProfileLease;
  /** Set while it waits for its turn in the start gate, before anything is recorded: end() cancels the wait. */
  waiting?: AbortController;
}

/** Longest a persisting session's browser has to close cleanly (flushing its cookies) before the save. */
const BROWSER_CLOSE_TIMEOUT_MS = 10_000;

/** Longest a beforeEnd hook may hold up a session's end (its browser is still running meanwhile). */
export const END_HOOK_TIMEOUT_MS = 5_000;

/** Token sets issued after create that a session keeps; the oldest is dropped beyond this. */
const MAX_ISSUED_TOKEN_SETS = 16;

/** Seconds a client over MAX_SESSIONS is told to wait: roughly one session cycle. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Longest a create waits in the start gate's line before it is refused as busy (429, Retry-After).
 * Its start comes after the wait, so a client waits at most this plus one start: inside the minute
 * HTTP clients commonly allow, and about 15 rounds of starts on an idle 2-core host, more than the
 * line holds (StartGate: 8 client starts a place).
 */
const START_PATIENCE_MS = 30_000;

/** Why a session cannot ask for proxies on this server, or null when it can (or does not ask). */
export const proxiesIssue = (proxies: boolean, proxyUrl: string | undefined): Issue | null =>
  proxies && !proxyUrl
    ? {
        path: 'proxies',
        message: 'proxies is true but this server has no PROXY_URL configured: set PROXY_URL, or send proxies: false',
      }
    : null;

/** The refusal of a start once closeAll() has begun (a queued run's too: runs/queue/waitingLine.ts). */
export const shuttingDown = () =>
  new Unavailable(ErrorCode.shuttingDown, 'The server is shutting down; try again shortly', RETRY_AFTER_SECONDS);

/**
 * The refusal of a new session on a draining node (sessions/sessionManager drain()). 503 with
 * Retry-After, the shutting-down code: a load balancer or client tries another node, or this one
 * once it is back.
 */
export const drainingRefusal = () =>
  new Unavailable(
    ErrorCode.shuttingDown,
    'This node is draining before a restart and starts no new session: retry on another node, or here shortly',
    RETRY_AFTER_SECONDS,
  );

/** Tell the rest of the service (event log, webhooks, lists) of sessions ended as crashed in the store. */
export function announceCrashed(bus: Bus, sessions: CrashedSession[]): void {
  for (const s of sessions) {
    bus.emit('session.ended', {
      session_id: s.id,
      workflow_id: s.workflow_id,
      reason: 'crashed',
      webhook_url: s.webhook_url ?? undefined,
      metadata: s.metadata ?? undefined,
    });
    bus.emit('session.changed', { session_id: s.id });
  }
}

/**
 * Live browser sessions: one BrowserTree each, handed out from a warm pool when one is ready.
 * Tokens and trees live in memory; SQLite keeps the record (and the pids, for reaping after a crash).
 */
export class BrowserSessionManager implements SessionManager {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly pool: WarmPool;
  /** Every browser start of this node, the pool's and the creates' own, takes its turn here. */
  private readonly gate: StartGate;
  private isolation: Isolation | undefined;
  private isClosed = false;
  private isDraining = false;
  private readonly hooks: SessionLifecycleHooks[] = [];

  constructor(private readonly opts: ManagerOptions) {
    this.gate = new StartGate(opts.config.BROWSER_STARTS_AT_ONCE);
    this.pool = new WarmPool({
      min: opts.config.WARM_POOL_SIZE,
      // WARM_POOL_SIZE=0 turns the pool off, demand or not.
      max: opts.config.WARM_POOL_SIZE === 0 ? 0 : opts.config.WARM_POOL_MAX,
      // A tree beyond the sessions that can still start would only wait (queued runs start cold).
      room: () => opts.config.MAX_SESSIONS - this.entries.size,
      // Launched in the default presentation, as a cold start is: a kiosk launched as one shows no
      // "press Esc to exit full screen" notice (a switch after the start showed it for seconds, into
      // the first seconds of a run's recording) and repaints nothing; a browser session from the
      // pool leaves fullscreen at hand-out (applyPresentation), with the same window chrome.
      treeOptions: (id) => ({
        ...this.treeOptions(id, undefined),
        kiosk: PRESENTATION_DEFAULT === 'kiosk',
        niceness: 10,
      }),
      onError: (err) => opts.log.error({ err }, 'warm pool: a browser failed to start'),
    });
  }

  private treeOptions(id: string, proxyServer: string | undefined): TreeOptions {
    if (!this.isolation) throw new Error('the session manager has not started');
    return {
      dataDir: this.opts.config.dataDir,
      id,
      executable: this.opts.config.CHROMIUM_PATH,
      isolation: this.isolation,
      gate: this.gate,
      proxyServer,
      onPid: (kind, pid) => void this.safely(() => this.opts.repo.addPid(id, kind, pid)),
    };
  }

  /** Store writes after close (the store is gone) must not turn an orderly shutdown into a crash. */
  private async safely(fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.opts.log.warn({ err }, 'session record not updated');
    }
  }

  addLifecycleHooks(hooks: SessionLifecycleHooks): void {
    this.hooks.push(hooks);
  }

  /** Run one kind of hook on every registrant; failures and overruns are logged, never thrown. */
  private async runHooks<K extends keyof SessionLifecycleHooks>(
    kind: K,
    id: string,
    call: (h: Required<SessionLifecycleHooks>[K]) => unknown,
    timeoutMs?: number,
  ): Promise<void> {
    await Promise.all(
      this.hooks.map(async (h) => {
        const fn = h[kind];
        if (!fn) return;
        let timer: NodeJS.Timeout | undefined;
        try {
          const work = Promise.resolve(call(fn.bind(h) as Required<SessionLifecycleHooks>[K]));
          const limit =
            timeoutMs === undefined
              ? work
              : Promise.race([
                  work,
                  new Promise(
                    (_r, reject) =>
                      (timer = setTimeout(() => reject(new Error(`${kind} took over ${timeoutMs} ms`)), timeoutMs)),
                  ),
                ]);
          await limit;
        } catch (err) {
          this.opts.log.warn({ err, session_id: id }, `session ${kind} hook failed`);
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }

  /** Ready browsers in the warm pool (for tests and the benchmark). */
  get warm(): number {
    return this.pool.size;
  }

  /** The pool's size, aim and the demand behind it (the benchmark and tests report it). */
  get poolStats(): WarmPool['stats'] {
    return this.pool.stats;
  }

  whenWarm(timeoutMs?: number): Promise<void> {
    return this.pool.whenFull(timeoutMs);
  }

  /** Sessions starting or live. */
  get active(): number {
    return this.entries.size;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get draining(): boolean {
    return this.isDraining;
  }

  drain(): void {
    this.isDraining = true;
    // Ready browsers would only wait for creates that no longer come.
    void this.pool.close();
  }

  liveIds(): string[] {
    return [...this.entries.keys()];
  }

  assertRoom(): void {
    if (this.entries.size >= this.opts.config.MAX_SESSIONS) {
      throw new AtCapacity(
        `This server runs at most ${this.opts.config.MAX_SESSIONS} sessions at once; end one or retry later`,
        RETRY_AFTER_SECONDS,
      );
    }
  }

  /**
   * Called once before the server takes requests: whatever a previous process of this DATA_DIR left
   * (sessions marked live, their processes, their profiles) is ended, then the pool fills.
   */
  async start(): Promise<void> {
    const { repo, bus, config } = this.opts;
    const orphans = await repo.endCrashed({ node: 'self' });
    const recorded = await repo.allProcesses();
    const trees = new Map<string, number[]>();
    for (const p of recorded) {
      // Only a pid that still carries our marker is ours; anything else is a recycled pid.
      if (startedBy(p.pid, config.dataDir, p.tree_id)) trees.set(p.tree_id, [...(trees.get(p.tree_id) ?? []), p.pid]);
    }
    await Promise.all([...trees].map(([id, pids]) => killTree(config.dataDir, id, pids)));
    // Processes started but never recorded (the server died mid-start) carry the marker too.
    await killStartedBy(config.dataDir);
    for (const p of recorded) await repo.dropTree(p.tree_id);
    await removeAllSessionDirs(config.dataDir);
    removeStaleDisplayFiles(config.SESSION_UIDS);
    // Folders of versions that kept profiles inside DATA_DIR.
    for (const dir of ['profiles', 'run', 'trash']) {
      await fs.promises.rm(path.join(config.dataDir, dir), { recursive: true, force: true }).catch(() => undefined);
    }
    this.isolation = await Isolation.start({
      dataDir: config.dataDir,
      uids: config.SESSION_UIDS,
      allowPrivateNetworks: config.BROWSER_ALLOW_PRIVATE_NETWORKS,
    });
    for (const gap of this.isolation.gaps) this.opts.log.warn(`Session isolation: ${gap}. See SECURITY.md.`);
    announceCrashed(bus, orphans);
    if (orphans.length) this.opts.log.warn(`marked ${orphans.length} session(s) left by a previous process as crashed`);
    this.pool.start();
  }

  create(input: CreateSessionInput): Promise<{ session: LiveSession; tokens: SessionTokens }> {
    if (this.isDraining) return Promise.reject(drainingRefusal());
    const minted = mintTokens();
    return this.track(this.createNow(input, minted.hashes).then((session) => ({ session, tokens: minted.tokens })));
  }

  createReserved(input: CreateSessionInput, reservation: { id: string; hashes: TokenHashes }): Promise<LiveSession> {
    return this.track(this.createNow(input, reservation.hashes, reservation.id));
  }

  /**
   * closeAll() waits for creations in flight, so a browser finishing its start during shutdown is
   * still killed before the server is gone. The promise handed back is the tracked one itself, which
   * has a handler, so a start that fails before its caller awaits it is no unhandled rejection.
   */
  private track<T>(p: Promise<T>): Promise<T> {
    const tracked = p.catch(() => undefined);
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
    return p;
  }

  /** `reservedId`: the id a queued run's caller was answered with (its hashes are of the tokens answered then). */
  private async createNow(input: CreateSessionInput, hashes: TokenHashes, reservedId?: string): Promise<LiveSession> {
    const { config, repo, bus } = this.opts;
    const proxies = proxiesIssue(input.proxies, config.PROXY_URL);
    if (proxies) throw new Invalid([proxies]);
    const profile = input.profile ? await this.openProfile(input.profile) : undefined;
    if (this.isClosed) throw shuttingDown();
    this.assertRoom();

    // A pooled tree carries its own id, and a reserved session's id was handed out already, so a
    // reserved session starts cold (its run waited anyway; a start is well under a second).
    // Launch flags (a proxy, a User-Agent) need a browser of its own.
    // A profile with a browser folder is laid in before Chromium starts: that browser is its own too.
    const pooled = input.proxies || input.userAgent || reservedId || profile?.coldStart ? undefined : this.pool.take();
    const id = reservedId ?? pooled?.id ?? randomUUID();
    const now = new Date();
    const entry: Entry = {
      workflowId: input.workflowId,
      hashes,
      moreHashes: [],
      webhookUrl: input.webhookUrl,
      metadata: input.metadata,
      endListeners: new Set(),
    };
    // Counted at once (assertRoom), before the store's answer: no other create can pass meanwhile.
    this.entries.set(id, entry);
    // A start of its own waits for its place in the gate before anything is recorded, so a create
    // the host is too busy for is refused (429) and leaves nothing: no record, no `failed_to_start`.
    // A queued run's start waits as long as it takes: its caller was answered when it queued.
    const place = pooled ? undefined : await this.waitForPlace(id, entry, reservedId ? undefined : START_PATIENCE_MS);
    try {
      // Before the record: a create refused because another session persists the profile leaves nothing.
      if (profile) entry.lease = await profile.take(id);
      await repo.insert({
        id,
        workflow_id: input.workflowId,
        proxies: input.proxies ? 1 : 0,
        timeout_seconds: input.timeoutSeconds,
        webhook_url: input.webhookUrl ?? null,
        metadata: input.metadata ?? null,
        ...hashColumns(hashes),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + input.timeoutSeconds * 1000).toISOString(),
      });
    } catch (err) {
      this.entries.delete(id);
      place?.();
      await entry.lease?.end({ unsaved: 'the session never started' }).catch(() => undefined);
      void pooled?.tree.then(
        (t) => t.kill(),
        () => undefined,
      );
      throw err;
    }
    bus.emit('session.changed', { session_id: id });

    let tree: BrowserTree;
    try {
      const lease = entry.lease;
      const presentation = input.presentation ?? PRESENTATION_DEFAULT;
      // A start of our own knows its presentation: launched in it, nothing to switch (and a kiosk
      // launched as one shows no "press Esc to exit full screen" notice).
      let launchedAsAsked = false;
      const cold = () => {
        launchedAsAsked = true;
        const start = BrowserTree.start({
          ...this.treeOptions(id, input.proxies ? config.PROXY_URL : undefined),
          // With its place taken already, the start does not queue again; it gives the place back.
          ...(place ? { gate: undefined } : {}),
          kiosk: presentation === 'kiosk',
          userAgent: input.userAgent,
          seed: lease?.seed?.bind(lease),
        });
        return place ? start.finally(place) : start;
      };
      // The pool's starting tree failed: its folders are gone, so a start of our own can take the id
      // (it waits its turn in the gate as long as it takes: its client has waited already).
      tree = pooled ? await pooled.tree.catch(cold) : await cold();
      entry.tree = tree;
      if (entry.ending) throw new Error('ended while starting');
      if (lease?.storageState) await this.applyState(tree, await lease.storageState(), 'profile');
      if (entry.ending) throw new Error('ended while starting');
      if (input.storageState) await this.applyState(tree, input.storageState, 'session_data');
      if (entry.ending) throw new Error('ended while starting');
      if (!launchedAsAsked) await applyPresentation(tree.hub, presentation);
      if (entry.ending) throw new Error('ended while starting');
      if (input.startUrl) await openStartUrl(tree.hub, input.startUrl, this.opts.log);
      if (entry.ending) throw new Error('ended while starting');
      if (!tree.alive) throw new Error('the browser died while starting');
      tree.onExit((what, clean) => {
        const closedByClient = what === 'chromium' && clean;
        if (!closedByClient)
          this.opts.log.warn({ session_id: id, process: what }, 'a session process died; ending the session');
        void this.end(id, closedByClient ? 'stopped' : 'crashed');
      });
    } catch (err) {
      place?.();
      if (!entry.ending && !isDomainError(err)) this.opts.log.error({ err, session_id: id }, 'session failed to start');
      await this.end(id, 'failed_to_start');
      // A tree that finished starting after end() began is not known to end(): kill it here.
      await entry.tree?.kill();
      if (isDomainError(err)) throw err;
      throw new Unavailable(ErrorCode.browserUnavailable, 'The browser could not be started; retry the request');
    }

    // Live from now: the timeout counts from the moment the URLs are handed out.
    const live = new Date();
    const session: LiveSession = {
      id,
      workflowId: input.workflowId,
      state: 'live',
      hub: tree.hub,
      folders: { uploads: tree.dirs.uploads, downloads: tree.dirs.downloads },
      user: tree.user,
      vncSocket: tree.vncSocket,
      createdAt: now,
      liveAt: live,
      expiresAt: new Date(live.getTime() + input.timeoutSeconds * 1000),
      forRun: input.forRun === true,
    };
    entry.session = session;
    await this.runHooks('onLive', id, (onLive) =>
      onLive(session, { display: tree.display.name, xauthority: tree.dirs.xauthority, ipc: tree.ipcNamespace }),
    );
    if (entry.ending)
      throw new Unavailable(ErrorCode.browserUnavailable, 'The session ended while it was starting; retry the request');
    this.armTimer(id, entry, session.expiresAt);
    await repo.markLive(id, session.expiresAt.toISOString());
    bus.emit('session.started', {
      session_id: id,
      workflow_id: input.workflowId,
      webhook_url: input.webhookUrl,
      metadata: input.metadata,
    });
    bus.emit('session.changed', { session_id: id });
    return session;
  }

  /**
   * Wait for a place in the start gate, a client's start (before the pool's refills); with
   * `patienceMs`, refused (AtCapacity) when the line is full or the wait runs out. The session is
   * counted meanwhile; ending it (closeAll, a queued run taken out of the queue) cancels the wait.
   */
  private async waitForPlace(id: string, entry: Entry, patienceMs: number | undefined): Promise<() => void> {
    entry.waiting = new AbortController();
    try {
      return await this.gate.enter({ urgent: true }, { signal: entry.waiting.signal, patienceMs });
    } catch (err) {
      this.entries.delete(id);
      if (!entry.ending) throw err;
      throw this.isClosed
        ? shuttingDown()
        : new Conflict('The session was ended while it waited for its turn to start a browser');
    } finally {
      entry.waiting = undefined;
    }
  }

  private openProfile(use: NonNullable<CreateSessionInput['profile']>): Promise<ProfileOpening> {
    if (!this.opts.profiles) throw new Unavailable(ErrorCode.browserUnavailable, 'This server keeps no profiles');
    return this.opts.profiles.open(use);
  }

  private async applyState(tree: BrowserTree, state: StorageState, from: 'session_data' | 'profile'): Promise<void> {
    const cdp = await CdpClient.open(tree.hub);
    try {
      await applyStorageState(cdp, state);
    } catch (err) {
      throw new Invalid([
        { path: from, message: `${from}'s storage state could not be applied: ${(err as Error).message}` },
      ]);
    } finally {
      cdp.close();
    }
  }

  get(id: string): LiveSession | undefined {
    return this.entries.get(id)?.session;
  }

  authorize(id: string, token: string | undefined, capability: Capability): LiveSession | null {
    const entry = this.entries.get(id);
    const live = entry?.session?.state === 'live' && !entry.ending ? entry : undefined;
    // Every set is compared, so the time taken says nothing about which one matched.
    const matches = [live?.hashes, ...(live?.moreHashes ?? [])].map((hashes) => grants(hashes, token, capability));
    return matches.includes(true) ? live!.session! : null;
  }

  issueTokens(id: string): SessionTokens | null {
    const entry = this.entries.get(id);
    if (entry?.session?.state !== 'live' || entry.ending) return null;
    // Bounded: each call adds a set that every authorize compares.
    if (entry.moreHashes.length >= MAX_ISSUED_TOKEN_SETS) entry.moreHashes.shift();
    const { tokens, hashes } = mintTokens();
    entry.moreHashes.push(hashes);
    return tokens;
  }

  /** End the session as timed out at `at` (now if it has passed). */
  private armTimer(id: string, entry: Entry, at: Date): void {
    clearTimeout(entry.timer);
    // setTimeout holds at most 2^31-1 ms (about 24.8 days), far beyond SESSION_TIMEOUT_MAX.
    entry.timer = setTimeout(() => void this.end(id, 'timed_out'), Math.max(0, at.getTime() - Date.now())).unref();
  }

  async retime(id: string, timeoutSeconds: number): Promise<LiveSession> {
    const entry = this.entries.get(id);
    const live = entry?.session?.state === 'live' && !entry.ending ? entry.session : undefined;
    if (!entry || !live) throw new Conflict('The session is not live: only a live session can be extended');
    const expiresAt = new Date(live.liveAt.getTime() + timeoutSeconds * 1000);
    if (expiresAt.getTime() <= Date.now()) {
      const lived = Math.floor((Date.now() - live.liveAt.getTime()) / 1000);
      throw new Invalid([
        { path: 'timeout', message: `timeout must reach past now: the session has been live ${lived} seconds` },
      ]);
    }
    if (!(await this.opts.repo.setTimeout(id, timeoutSeconds, expiresAt.toISOString())) || entry.ending) {
      throw new Conflict('The session is not live: only a live session can be extended');
    }
    live.expiresAt = expiresAt;
    this.armTimer(id, entry, expiresAt);
    this.opts.bus.emit('session.changed', { session_id: id });
    return live;
  }

  end(id: string, reason: EndReason): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return Promise.resolve();
    entry.endReason ??= reason;
    entry.ending ??= entry.waiting
      ? this.cancelWait(id, entry, entry.waiting, reason)
      : (async () => {
          const { repo, bus } = this.opts;
          clearTimeout(entry.timer);
          // Before anything closes: the browser is still up for a last read (its storage state).
          const live = entry.session;
          if (live && live.state === 'live' && entry.tree?.alive)
            await this.runHooks('beforeEnd', id, (beforeEnd) => beforeEnd(live, reason), END_HOOK_TIMEOUT_MS);
          if (entry.lease) await this.endLease(id, entry, entry.lease, reason);
          if (entry.session) entry.session.state = 'ended';
          await this.safely(() => repo.markEnded(id, reason));
          // Bridges close their sockets first, so clients see a clean close rather than a dead peer.
          this.tellEndListeners(entry, reason);
          bus.emit('session.ended', {
            session_id: id,
            workflow_id: entry.workflowId,
            reason,
            webhook_url: entry.webhookUrl,
            metadata: entry.metadata,
          });
          bus.emit('session.changed', { session_id: id });
          // A tree still starting is killed by create() when it notices `ending`; its processes carry
          // the marker, so a sweep by tree id catches them either way.
          if (entry.tree) await entry.tree.kill();
          else await killTree(this.opts.config.dataDir, id, []);
          await this.safely(() => repo.dropTree(id));
          this.entries.delete(id);
          await this.runHooks('afterEnd', id, (afterEnd) => afterEnd(id, reason));
        })();
    return entry.ending;
  }

  /** A session still waiting for its turn to start: nothing was recorded or started, so the wait alone ends. */
  private async cancelWait(id: string, entry: Entry, waiting: AbortController, reason: EndReason): Promise<void> {
    waiting.abort();
    this.entries.delete(id);
    this.tellEndListeners(entry, reason);
    await this.runHooks('afterEnd', id, (afterEnd) => afterEnd(id, reason));
  }

  private tellEndListeners(entry: Entry, reason: EndReason): void {
    for (const l of entry.endListeners) {
      try {
        l(reason);
      } catch (err) {
        this.opts.log.warn({ err }, 'session end listener failed');
      }
    }
    entry.endListeners.clear();
  }

  /**
   * Give the profile back. A persisting session's browser is closed first, so that it writes
   * everything (cookies are flushed on a clean exit only); a crash saves nothing.
   */
  private async endLease(id: string, entry: Entry, lease: ProfileLease, reason: EndReason): Promise<void> {
    let outcome: Parameters<ProfileLease['end']>[0];
    if (!lease.persist) outcome = { unsaved: 'the session used the profile read-only' };
    else if (reason === 'failed_to_start' || !entry.session) outcome = { unsaved: 'the session never started' };
    else if (reason === 'crashed' || !entry.tree) outcome = { unsaved: 'the browser crashed' };
    else if (await entry.tree.closeBrowser(BROWSER_CLOSE_TIMEOUT_MS))
      outcome = { userDataDir: entry.tree.dirs.profile, owner: entry.tree.user?.uid ?? process.getuid!() };
    else outcome = { unsaved: `the browser did not close cleanly within ${BROWSER_CLOSE_TIMEOUT_MS / 1000} s` };
    await lease
      .end(outcome)
      .catch((err: unknown) => this.opts.log.warn({ err, session_id: id }, 'profile not released'));
  }

  onEnd(id: string, listener: (reason: EndReason | undefined) => void): () => void {
    const entry = this.entries.get(id);
    if (!entry || entry.ending) {
      queueMicrotask(() => listener(entry?.endReason));
      return () => undefined;
    }
    entry.endListeners.add(listener);
    return () => entry.endListeners.delete(listener);
  }

  async closeAll(): Promise<void> {
    this.isClosed = true;
    await Promise.all([this.pool.close(), ...[...this.entries.keys()].map((id) => this.end(id, 'stopped'))]);
    await Promise.all(this.inflight);
    await this.isolation?.close();
    // Every tree is gone with its folders: the root goes too, so nothing is left in $TMPDIR.
    await removeAllSessionDirs(this.opts.config.dataDir);
  }
}
