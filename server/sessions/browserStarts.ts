import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Log } from '../log.ts';
import { PRESENTATION_DEFAULT } from '../../contract/sessions.ts';
import { Isolation } from './isolation/isolation.ts';
import { BrowserTree, type ProcessKind, type TreeOptions } from './browser/tree.ts';
import { StartGate } from './browser/startGate.ts';
import type { ProfileLease } from './types.ts';
import type { CreateSessionInput } from './types.ts';
import { runStartSteps } from './startSteps.ts';
import { WarmPool, type PooledTree } from './warmPool.ts';

/**
 * Longest a create waits in the start gate's line before it is refused as busy (429, Retry-After).
 * Its start comes after the wait, so a client waits at most this plus one start: inside the minute
 * HTTP clients commonly allow, and about 15 rounds of starts on an idle 2-core host, more than the
 * line holds (StartGate: 8 client starts a place).
 */
const START_PATIENCE_MS = 30_000;

/** A place in the start gate, held while a browser starts: call it to give the place back. */
export type StartPlace = () => void;

/** What a session's browser is started with and given before it is handed out. */
export interface Launch {
  /** A tree taken from the warm pool, else the session's start is its own. */
  pooled?: PooledTree;
  /** Its place in the gate, for a start of its own taken already. */
  place?: StartPlace;
  input: CreateSessionInput;
  lease?: ProfileLease;
  /** The session's end: the start steps stop at it. */
  signal: AbortSignal;
  /** The tree once started, before its start steps (so the session's end can kill it meanwhile). */
  onTree: (tree: BrowserTree) => void;
}

export interface BrowserStartsOptions {
  config: Pick<
    Config,
    | 'dataDir'
    | 'CHROMIUM_PATH'
    | 'WARM_POOL_SIZE'
    | 'WARM_POOL_MAX'
    | 'BROWSER_STARTS_AT_ONCE'
    | 'SESSION_UIDS'
    | 'BROWSER_ALLOW_PRIVATE_NETWORKS'
    | 'PROXY_URL'
  >;
  log: Log;
  /** Sessions that could still be handed out: the pool keeps no more ready than this. */
  room: () => number;
  /** Each process of a tree, as soon as it is up (recorded for reaping after a crash). */
  onPid: (treeId: string, kind: ProcessKind, pid: number) => void;
}

/**
 * Where this node's browsers come from: the session isolation they run under, the start gate every
 * start takes its turn in (the pool's and the creates' own), and the warm pool of ready ones.
 */
export class BrowserStarts {
  readonly pool: WarmPool;
  /** Every browser start of this node, the pool's and the creates' own, takes its turn here. */
  readonly gate: StartGate;
  private isolation: Isolation | undefined;

  constructor(private readonly opts: BrowserStartsOptions) {
    const { config } = opts;
    this.gate = new StartGate(config.BROWSER_STARTS_AT_ONCE);
    this.pool = new WarmPool({
      min: config.WARM_POOL_SIZE,
      // WARM_POOL_SIZE=0 turns the pool off, demand or not.
      max: config.WARM_POOL_SIZE === 0 ? 0 : config.WARM_POOL_MAX,
      room: opts.room,
      // Launched in the default presentation, as a cold start is: a kiosk launched as one shows no
      // "press Esc to exit full screen" notice (a switch after the start showed it for seconds, into
      // the first seconds of a run's recording) and repaints nothing; a browser session from the
      // pool leaves fullscreen at hand-out (applyPresentation), with the same window chrome.
      treeOptions: (id) => ({ ...this.treeOptions(id), kiosk: PRESENTATION_DEFAULT === 'kiosk', niceness: 10 }),
      onError: (err) => opts.log.error({ err }, 'warm pool: a browser failed to start'),
    });
  }

  /** Set up session isolation (users, network rules), once the previous process's leftovers are gone. */
  async isolate(): Promise<void> {
    const { config } = this.opts;
    this.isolation = await Isolation.start({
      dataDir: config.dataDir,
      uids: config.SESSION_UIDS,
      allowPrivateNetworks: config.BROWSER_ALLOW_PRIVATE_NETWORKS,
    });
    for (const gap of this.isolation.gaps) this.opts.log.warn(`Session isolation: ${gap}. See SECURITY.md.`);
  }

  /** The options of a tree of this node (the id is the session's). */
  treeOptions(id: string): TreeOptions {
    if (!this.isolation) throw new Error('the session manager has not started');
    return {
      dataDir: this.opts.config.dataDir,
      id,
      executable: this.opts.config.CHROMIUM_PATH,
      isolation: this.isolation,
      gate: this.gate,
      onPid: (kind, pid) => this.opts.onPid(id, kind, pid),
    };
  }

  /**
   * Wait for a place in the gate as a client's start (before the pool's refills). `refusable`: a
   * client's create, refused (AtCapacity) when the line is full or the wait runs out; a queued
   * run's waits as long as it takes. Aborting `signal` cancels the wait.
   */
  waitForPlace(signal: AbortSignal, refusable: boolean): Promise<StartPlace> {
    return this.gate.enter({ urgent: true }, { signal, patienceMs: refusable ? START_PATIENCE_MS : undefined });
  }

  /**
   * The session's browser, ready to hand out: the pool's tree, or one of its own (launched in the
   * presentation asked, with its proxy, User-Agent and profile folder), then its start steps.
   */
  async launch(id: string, { pooled, place, input, lease, signal, onTree }: Launch): Promise<BrowserTree> {
    const presentation = input.presentation ?? PRESENTATION_DEFAULT;
    // A start of our own knows its presentation: launched in it, nothing to switch (and a kiosk
    // launched as one shows no "press Esc to exit full screen" notice).
    let launchedAsAsked = false;
    const cold = () => {
      launchedAsAsked = true;
      // With its place taken already, the start does not queue again; it gives the place back.
      const start = BrowserTree.start({
        ...this.treeOptions(id),
        ...(place ? { gate: undefined } : {}),
        proxyServer: input.proxies ? this.opts.config.PROXY_URL : undefined,
        kiosk: presentation === 'kiosk',
        userAgent: input.userAgent,
        seed: lease?.seed?.bind(lease),
      });
      return place ? start.finally(place) : start;
    };
    // The pool's starting tree failed: its folders are gone, so a start of our own can take the id
    // (it waits its turn in the gate as long as it takes: its client has waited already).
    const tree = pooled ? await pooled.tree.catch(cold) : await cold();
    onTree(tree);
    const steps = {
      profileState: lease?.storageState?.bind(lease),
      sessionData: input.storageState,
      presentation: launchedAsAsked ? undefined : presentation,
      startUrl: input.startUrl,
    };
    await runStartSteps(tree.hub, steps, signal, this.opts.log);
    if (!tree.alive) throw new Error('the browser died while starting');
    return tree;
  }

  /**
   * A browser with nothing of any session's in it yet, for sessions to share (ContextBrowsers): the
   * pool's, else one of its own once it has its place in the gate (`signal` and `refusable` as in
   * waitForPlace; they bound the wait only, as other sessions may come to share the browser).
   * One of its own is headless: its sessions are seen through screencasts only (they share its
   * display), so Xvfb and x11vnc would cost a start and memory for nothing. The pool's is taken
   * still, display and all, when one is ready: it is there now, where a start is not.
   */
  async plain(signal: AbortSignal, refusable: boolean): Promise<BrowserTree> {
    const pooled = this.pool.take();
    const cold = async (id: string) => {
      const place = await this.waitForPlace(signal, refusable);
      return BrowserTree.start({ ...this.treeOptions(id), gate: undefined, headless: true }).finally(place);
    };
    return pooled ? pooled.tree.catch(() => cold(pooled.id)) : cold(randomUUID());
  }

  async close(): Promise<void> {
    await this.isolation?.close();
  }
}
