import { randomUUID } from 'node:crypto';
import { Invalid, isDomainError } from '../domain/errors.ts';
import { removeAllSessionDirs } from './isolation/sessionDirs.ts';
import { killTree } from './browser/processes.ts';
import type { BrowserTree, ProcessKind, TreeOptions } from './browser/tree.ts';
import type { StartGate } from './browser/startGate.ts';
import { BrowserStarts, type Launch, type StartPlace } from './browserStarts.ts';
import { announceCrashed, endWhatAPreviousProcessLeft } from './crashRecovery.ts';
import { ProfileLeases } from './profileLeases.ts';
import * as refuse from './refusals.ts';
import { grants, mintTokens, type TokenHashes } from './tokens.ts';
import { ContextBrowsers } from './contexts/contextBrowsers.ts';
import { startContext } from './contexts/contextStart.ts';
import { isolationOf } from './contexts/isolationOf.ts';
import {
  contextHost,
  laterExpiry,
  liveDisplayOf,
  liveSessionOf,
  newEntry,
  newSessionRow,
  tellEndListeners,
  treeHost,
} from './entry.ts';
import type { Entry } from './entry.ts';
import type { ManagerOptions } from './managerOptions.ts';
import type {
  Capability,
  CreateSessionInput,
  EndReason,
  LiveSession,
  ProfileLease,
  SessionManager,
  SessionTokens,
} from './types.ts';

/**
 * Live browser sessions: one BrowserTree each, handed out from a warm pool when one is ready.
 * Tokens and trees live in memory; the store keeps the record (and the pids, for reaping after a crash).
 */
export class BrowserSessionManager implements SessionManager {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly starts: BrowserStarts;
  private readonly contexts: ContextBrowsers;
  private readonly leases: ProfileLeases;
  private isClosed = false;
  private isDraining = false;

  constructor(private readonly opts: ManagerOptions) {
    this.leases = new ProfileLeases(opts.profiles, opts.log);
    this.starts = new BrowserStarts({
      config: opts.config,
      log: opts.log,
      // A tree beyond the sessions that can still start would only wait (queued runs start cold).
      room: () => opts.config.MAX_SESSIONS - this.placesUsed,
      onPid: (id, kind, pid) => void this.safely(() => opts.repo.addPid(id, kind, pid)),
    });
    this.contexts = new ContextBrowsers({
      starts: this.starts,
      config: opts.config,
      log: opts.log,
      onCrash: (ids) => ids.forEach((id) => void this.end(id, 'crashed')),
      onBrowserClose: (id) => void this.end(id, 'stopped'),
    });
  }

  /**
   * MAX_SESSIONS' places taken: a browser session's browser (starting or live) each, and each
   * browser that context sessions share, however many contexts it holds (CONTEXTS_PER_BROWSER at most).
   */
  get placesUsed(): number {
    let browsers = 0;
    for (const entry of this.entries.values()) if (entry.isolation === 'browser') browsers++;
    return browsers + this.contexts.count;
  }

  /** Store writes after close (the store is gone) must not turn an orderly shutdown into a crash. */
  private async safely(fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.opts.log.warn({ err }, 'session record not updated');
    }
  }

  /** This node's start gate (tests drive a pool of their own through it). */
  get gate(): StartGate {
    return this.starts.gate;
  }

  /** A tree's options on this node (tests start trees of their own with them). */
  treeOptions(id: string): TreeOptions {
    return this.starts.treeOptions(id);
  }

  /** Ready browsers in the warm pool (for tests and the benchmark). */
  get warm(): number {
    return this.starts.pool.size;
  }

  /** The pool's size, aim and the demand behind it (the benchmark and tests report it). */
  get poolStats(): BrowserStarts['pool']['stats'] {
    return this.starts.pool.stats;
  }

  whenWarm(timeoutMs?: number): Promise<void> {
    return this.starts.pool.whenFull(timeoutMs);
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
    void this.starts.pool.close();
  }

  liveIds(): string[] {
    return [...this.entries.keys()];
  }

  hasRoom(input: Pick<CreateSessionInput, 'isolation' | 'apiKeyId'> = {}): boolean {
    const context = (input.isolation ?? this.opts.config.SESSION_ISOLATION) === 'context';
    if (context && this.contexts.hasRoomFor(input.apiKeyId ?? null)) return true;
    return this.placesUsed < this.opts.config.MAX_SESSIONS;
  }

  assertRoom(input: Pick<CreateSessionInput, 'isolation' | 'apiKeyId'> = {}): void {
    if (!this.hasRoom(input)) throw refuse.atCapacity(this.opts.config.MAX_SESSIONS);
  }

  /**
   * Called once before the server takes requests: whatever a previous process of this DATA_DIR left
   * (sessions marked live, their processes, their profiles) is ended, then the pool fills.
   */
  async start(): Promise<void> {
    const { repo, bus, config, log } = this.opts;
    const orphans = await endWhatAPreviousProcessLeft({ repo, dataDir: config.dataDir, uids: config.SESSION_UIDS });
    await this.starts.isolate();
    announceCrashed(bus, orphans);
    if (orphans.length) log.warn(`marked ${orphans.length} session(s) left by a previous process as crashed`);
    this.starts.pool.start();
  }

  create(input: CreateSessionInput): Promise<{ session: LiveSession; tokens: SessionTokens }> {
    if (this.isDraining) return Promise.reject(refuse.drainingRefusal());
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
    const proxies = refuse.proxiesIssue(input.proxies, config.PROXY_URL);
    if (proxies) throw new Invalid([proxies]);
    const profile = input.profile ? await this.leases.open(input.profile) : undefined;
    if (this.isClosed) throw refuse.shuttingDown();
    const isolation = isolationOf(input, config);
    this.assertRoom({ isolation, apiKeyId: input.apiKeyId });

    // A pooled tree carries its own id, and a reserved session's id was handed out already, so a
    // reserved session starts cold (its run waited anyway; a start is well under a second).
    // Launch flags (a proxy, a User-Agent) need a browser of its own.
    // A profile with a browser folder is laid in before Chromium starts: that browser is its own too.
    // A context session takes a place in a shared browser (ContextBrowsers), never a pool tree of its own.
    const pooled =
      isolation === 'context' || input.proxies || input.userAgent || reservedId || profile?.coldStart
        ? undefined
        : this.starts.pool.take();
    const id = reservedId ?? pooled?.id ?? randomUUID();
    const now = new Date();
    const entry = newEntry(input, isolation, hashes);
    // Counted at once (assertRoom), before the store's answer: no other create can pass meanwhile.
    this.entries.set(id, entry);
    // A start of its own waits for its place in the gate before anything is recorded, so a create
    // the host is too busy for is refused (429) and leaves nothing: no record, no `failed_to_start`.
    // A queued run's start waits as long as it takes: its caller was answered when it queued.
    const place =
      pooled || isolation === 'context' ? undefined : await this.waitForPlace(id, entry, reservedId === undefined);
    let lease: ProfileLease | undefined;
    try {
      // Before the record: a create refused because another session persists the profile leaves nothing.
      if (profile) lease = await this.leases.take(id, profile);
      await repo.insert(newSessionRow(id, input, isolation, hashes, now));
    } catch (err) {
      this.entries.delete(id);
      place?.();
      await this.leases.release(id, 'failed_to_start', { live: false });
      void pooled?.tree.then(
        (t) => t.kill(),
        () => undefined,
      );
      throw err;
    }
    bus.emit('session.changed', { session_id: id });
    await this.opts.lifecycle.starting(id);

    let session: LiveSession;
    try {
      session =
        isolation === 'context'
          ? await this.startContextSession(id, entry, input, now, reservedId === undefined)
          : await this.startBrowserSession(id, entry, { pooled, place, input, lease }, now);
    } catch (err) {
      place?.();
      if (!entry.ending && !isDomainError(err)) this.opts.log.error({ err, session_id: id }, 'session failed to start');
      await this.end(id, 'failed_to_start');
      // A tree that finished starting after end() began is not known to end(): kill it here.
      await entry.tree?.kill();
      if (isDomainError(err)) throw err;
      throw refuse.browserNotStarted();
    }

    entry.session = session;
    await this.opts.lifecycle.live(session, entry.tree ? liveDisplayOf(entry.tree) : null);
    entry.stop.signal.throwIfAborted();
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

  /** Its own browser, from the pool or started; live from when it is handed out (its timeout counts from then). */
  private async startBrowserSession(
    id: string,
    entry: Entry,
    launch: Pick<Launch, 'pooled' | 'place' | 'input' | 'lease'>,
    createdAt: Date,
  ): Promise<LiveSession> {
    const onTree = (started: BrowserTree) => void (entry.tree = started);
    const tree = await this.starts.launch(id, { ...launch, signal: entry.stop.signal, onTree });
    tree.onExit((what, clean) => void this.end(id, this.exitReason(id, what, clean)));
    return liveSessionOf(id, launch.input, treeHost(tree), createdAt);
  }

  /** A context in a browser its key shares (its crash or Browser.close ends the session: ContextBrowsers). */
  private async startContextSession(
    id: string,
    entry: Entry,
    input: CreateSessionInput,
    createdAt: Date,
    refusable: boolean,
  ): Promise<LiveSession> {
    const lease = await startContext({
      id,
      input,
      contexts: this.contexts,
      signal: entry.stop.signal,
      refusable,
      log: this.opts.log,
      onLease: (l) => void (entry.context = l),
    });
    return liveSessionOf(id, input, contextHost(lease), createdAt);
  }

  /**
   * Wait for a place in the start gate (BrowserStarts.waitForPlace). The session is counted
   * meanwhile; ending it (closeAll, a queued run taken out of the queue) cancels the wait.
   */
  private async waitForPlace(id: string, entry: Entry, refusable: boolean): Promise<StartPlace> {
    entry.waiting = true;
    try {
      return await this.starts.waitForPlace(entry.stop.signal, refusable);
    } catch (err) {
      this.entries.delete(id);
      if (!entry.stop.signal.aborted) throw err;
      throw this.isClosed ? refuse.shuttingDown() : refuse.endedWhileWaiting();
    } finally {
      entry.waiting = false;
    }
  }

  /** A tree's process died: a clean exit of Chromium is its client closing it (stopped), any other a crash. */
  private exitReason(id: string, what: ProcessKind, clean: boolean): EndReason {
    if (what === 'chromium' && clean) return 'stopped';
    this.opts.log.warn({ session_id: id, process: what }, 'a session process died; ending the session');
    return 'crashed';
  }

  get(id: string): LiveSession | undefined {
    return this.entries.get(id)?.session;
  }

  /** The entry of a session that is live and not ending, else undefined. */
  private liveEntry(id: string): (Entry & { session: LiveSession }) | undefined {
    const entry = this.entries.get(id);
    return entry?.session?.state === 'live' && !entry.ending ? (entry as Entry & { session: LiveSession }) : undefined;
  }

  authorize(id: string, token: string | undefined, capability: Capability): LiveSession | null {
    const live = this.liveEntry(id);
    // An unknown session is compared against a decoy, so the time says nothing of whether it exists.
    const granted = live ? live.tokens.grant(token, capability) : grants(undefined, token, capability);
    return granted && live ? live.session : null;
  }

  issueTokens(id: string): SessionTokens | null {
    return this.liveEntry(id)?.tokens.issue() ?? null;
  }

  /** End the session as timed out at `at` (now if it has passed). */
  private armTimer(id: string, entry: Entry, at: Date): void {
    clearTimeout(entry.timer);
    // setTimeout holds at most 2^31-1 ms (about 24.8 days), far beyond SESSION_TIMEOUT_MAX.
    entry.timer = setTimeout(() => void this.end(id, 'timed_out'), Math.max(0, at.getTime() - Date.now())).unref();
  }

  async retime(id: string, timeoutSeconds: number): Promise<LiveSession> {
    const entry = this.liveEntry(id);
    if (!entry) throw refuse.notLive();
    const live = entry.session;
    const expiresAt = laterExpiry(live, timeoutSeconds);
    if (!(await this.opts.repo.setTimeout(id, timeoutSeconds, expiresAt.toISOString())) || entry.ending) {
      throw refuse.notLive();
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
    entry.ending ??= this.endNow(id, entry, reason);
    return entry.ending;
  }

  private async endNow(id: string, entry: Entry, reason: EndReason): Promise<void> {
    const { repo, bus, lifecycle } = this.opts;
    // Stops a start under way: its wait for a place, or its start steps.
    entry.stop.abort(refuse.endedWhileStarting());
    // Still waiting for its turn: nothing was recorded or started, so the wait alone ends.
    if (entry.waiting) {
      this.entries.delete(id);
      tellEndListeners(entry, reason, this.opts.log);
      return lifecycle.afterEnd(id, reason);
    }
    clearTimeout(entry.timer);
    // Before anything closes: the browser is still up for a last read (its storage state).
    const live = entry.session;
    const up = entry.tree?.alive ?? entry.context?.alive ?? false;
    if (live && live.state === 'live' && up) await lifecycle.beforeEnd(live, reason);
    await this.leases.release(id, reason, { live: entry.session !== undefined, tree: entry.tree });
    if (entry.session) entry.session.state = 'ended';
    await this.safely(() => repo.markEnded(id, reason));
    // Bridges close their sockets first, so clients see a clean close rather than a dead peer.
    tellEndListeners(entry, reason, this.opts.log);
    bus.emit('session.ended', {
      session_id: id,
      workflow_id: entry.workflowId,
      reason,
      webhook_url: entry.webhookUrl,
      metadata: entry.metadata,
    });
    bus.emit('session.changed', { session_id: id });
    // A tree still starting is killed by create() when its start fails on the stop; its processes
    // carry the marker, so a sweep by tree id catches them either way.
    if (entry.context) await this.contexts.release(id, entry.context);
    else if (entry.tree) await entry.tree.kill();
    else if (entry.isolation === 'browser') await killTree(this.opts.config.dataDir, id, []);
    await this.safely(() => repo.dropTree(id));
    this.entries.delete(id);
    await lifecycle.afterEnd(id, reason);
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
    await Promise.all([this.starts.pool.close(), ...[...this.entries.keys()].map((id) => this.end(id, 'stopped'))]);
    await Promise.all(this.inflight);
    await this.contexts.closeAll();
    await this.starts.close();
    // Every tree is gone with its folders: the root goes too, so nothing is left in $TMPDIR.
    await removeAllSessionDirs(this.opts.config.dataDir);
  }
}
