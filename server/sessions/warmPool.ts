import { randomUUID } from 'node:crypto';
import { PoolDemand, treesMemoryAllows } from './poolDemand.ts';
import { BrowserTree, type TreeOptions } from './browser/tree.ts';
import type { StartTicket } from './browser/startGate.ts';

export interface WarmPoolOptions {
  /** Always keep at least this many ready (WARM_POOL_SIZE). */
  min: number;
  /** Never more than this (WARM_POOL_MAX), however fast sessions are asked for. */
  max: number;
  /** Sessions that could still be handed out (MAX_SESSIONS minus those live): more ready trees would only wait. */
  room: () => number;
  /** Everything of TreeOptions but the id, which the pool picks (it becomes the session id), and the gate's ticket. */
  treeOptions: (id: string) => TreeOptions;
  onError: (err: unknown) => void;
  /** What sizes the pool (tests give one whose rate they set); by default the creates this pool sees. */
  demand?: PoolDemand;
}

/** A tree from the pool: ready now, or one starting, which is sooner than a start of one's own. */
export interface PooledTree {
  id: string;
  tree: Promise<BrowserTree>;
}

/** How often the pool looks at demand while nothing happens: it grows or shrinks between creates too. */
const RECONCILE_MS = 5_000;
/** A surplus tree is stopped only after this long without a create: the next burst may need it. */
const SHRINK_AFTER_IDLE_MS = 60_000;

interface Starting {
  id: string;
  promise: Promise<BrowserTree>;
  /** A create took it: it goes to that create, not to the pool. */
  claimed: boolean;
  /** Its place in the start gate's line (a pool's start, after the clients'); `placed` once it runs. */
  ticket: StartTicket;
  /** Ends the start (close() does, for unclaimed ones). */
  abort: AbortController;
}

/**
 * Ready browser trees, so a session is handed out in milliseconds. Sized from demand
 * (PoolDemand: the recent create rate and the measured start time), within WARM_POOL_SIZE and
 * WARM_POOL_MAX, free session slots and memory. A tree taken starts its replacement at once, and
 * as many starts run as the target needs, within the start gate (which runs a waiting create's
 * start first, and bounds what runs at once by the cores); a create that finds no ready tree takes
 * the oldest one running its start rather than starting another beside it; a failing start backs off
 * instead of spinning.
 */
export class WarmPool {
  private readonly ready: BrowserTree[] = [];
  private readonly demand: PoolDemand;
  /** The trees being started, oldest first. */
  private readonly starting: Starting[] = [];
  private closed = false;
  private failures = 0;
  private lastTake = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private delayTimer: NodeJS.Timeout | undefined;
  /** Set by start(): until its owner has started (isolation ready), the pool starts nothing. */
  private reconcileTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: WarmPoolOptions) {
    this.demand = opts.demand ?? new PoolDemand({ min: opts.min, max: Math.max(opts.min, opts.max) });
  }

  /**
   * Begin filling, and keep the pool at its target from then on. Not from the constructor: a
   * server whose start outlasts RECONCILE_MS (a slow host, a long crash clean-up) would otherwise
   * start browsers before their isolation exists.
   */
  start(): void {
    if (this.closed || this.reconcileTimer) return;
    this.reconcileTimer = setInterval(() => this.reconcile(), RECONCILE_MS).unref();
    this.fill();
  }

  get size(): number {
    return this.ready.length;
  }

  /** What the pool aims for now, and why (the benchmark reports it). */
  get stats(): { ready: number; starting: number; target: number; createsPerSecond: number; startMs: number } {
    return {
      ready: this.ready.length,
      starting: this.starting.length,
      target: this.target(),
      createsPerSecond: this.demand.rate(),
      startMs: this.demand.averageStartMs,
    };
  }

  private target(): number {
    const room = Math.min(this.opts.room(), this.ready.length + treesMemoryAllows());
    return this.demand.target(Math.max(0, room));
  }

  /** A live tree (ready, or the one starting), or undefined when the pool has none. The pool refills behind it. */
  take(): PooledTree | undefined {
    this.demand.noteTake();
    this.lastTake = Date.now();
    let taken: PooledTree | undefined;
    let tree: BrowserTree | undefined;
    while ((tree = this.ready.shift())) {
      if (tree.alive) {
        taken = { id: tree.id, tree: Promise.resolve(tree) };
        break;
      }
      void tree.kill();
    }
    // Only a start that has its place in the gate: one still in line would hold its create there
    // for as long as the line takes, past the create's own patience; a start of its own waits as a
    // client's start does (before the pool's) and is refused when the host is too busy.
    const oldest = taken ? undefined : this.starting.find((s) => !s.claimed && s.ticket.placed);
    if (oldest) {
      oldest.claimed = true;
      taken = { id: oldest.id, tree: oldest.promise };
    }
    // After the hand-out is answered: a few hundred /proc reads need not delay it.
    void taken?.tree.then(
      (t) => setImmediate(() => t.promote()),
      () => undefined,
    );
    // The replacement starts at once, after this turn of the event loop (spawning blocks it for a
    // moment; the create's own awaits go first).
    this.delayTimer ??= setTimeout(() => {
      this.delayTimer = undefined;
      this.fill();
    });
    return taken;
  }

  /** Start what the target lacks; the gate decides how many of them run at once. */
  fill(): void {
    if (this.closed || !this.reconcileTimer || this.retryTimer) return;
    const target = this.target();
    while (this.ready.length + this.unclaimedStarts() < target) this.startOne();
  }

  private unclaimedStarts(): number {
    return this.starting.filter((s) => !s.claimed).length;
  }

  private startOne(): void {
    const id = randomUUID();
    const abort = new AbortController();
    const ticket: StartTicket = { urgent: false };
    const starting: Starting = {
      id,
      promise: BrowserTree.start({ ...this.opts.treeOptions(id), signal: abort.signal, ticket }),
      claimed: false,
      ticket,
      abort,
    };
    this.starting.push(starting);
    const done = () => this.starting.splice(this.starting.indexOf(starting), 1);
    // A claimer sees the failure through its own promise; this sees it below.
    void starting.promise.then(
      async (tree) => {
        // The start's own time, not its wait in the gate's line: a line that grows would otherwise
        // grow the target, which would grow the line.
        this.demand.noteStart(tree.startTrace.total);
        this.failures = 0;
        if (this.closed && !starting.claimed) {
          // close() waits for this to leave `starting`: the kill is part of closing.
          await tree.kill();
          done();
          return;
        }
        done();
        if (starting.claimed) return this.fill();
        tree.onExit(() => {
          // A pooled browser died: drop it and start another.
          const i = this.ready.indexOf(tree);
          if (i >= 0) this.ready.splice(i, 1);
          void tree.kill().finally(() => this.fill());
        });
        this.ready.push(tree);
        this.fill();
      },
      (err: unknown) => {
        done();
        if (this.closed) return; // cut short by close(), or failing as the server stops: nothing to retry or report
        this.failures++;
        this.opts.onError(err);
        if (this.retryTimer) return;
        const delay = Math.min(60_000, 1000 * 2 ** Math.min(this.failures, 6));
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.fill();
        }, delay).unref();
      },
    );
  }

  /** Grow toward the target, or stop one surplus tree once creates have been quiet for a while. */
  private reconcile(): void {
    if (this.closed) return;
    const target = this.target();
    if (this.ready.length < target) return this.fill();
    if (this.ready.length > target && Date.now() - this.lastTake > SHRINK_AFTER_IDLE_MS) void this.ready.pop()?.kill();
  }

  /** Wait until the pool holds its target (tests and the benchmark). */
  async whenFull(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.ready.length < this.target() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.reconcileTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.delayTimer);
    const trees = this.ready.splice(0);
    // Starts in flight are cut short (a claimed one belongs to its create, which ends it); one that
    // finished meanwhile sees `closed` and kills its own tree.
    for (const s of this.starting) if (!s.claimed) s.abort.abort();
    while (this.starting.length) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(trees.map((t) => t.kill()));
  }
}
