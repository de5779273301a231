import type { Log } from '../log.ts';
import type { Config } from '../config.ts';
import type { NodesRepo } from '../store/nodes.ts';
import type { ClusterRouting } from './routing.ts';

/** How often a node says it is alive, and how long a silence makes it dead (the bound is 15 s). */
export const HEARTBEAT_MS = 2_000;
export const DEAD_AFTER_MS = 10_000;
/** A node whose port refuses connections and that has not beaten for this long is dead: it would have beaten by now. */
const REFUSED_AND_SILENT_MS = HEARTBEAT_MS + 1_000;

export interface MembershipOptions {
  config: Pick<Config, 'nodeId' | 'MAX_SESSIONS'>;
  nodes: NodesRepo;
  /** Sessions starting or live on this node now. */
  load: () => number;
  /** A draining node says it has no room, so no other node places a session or run on it. */
  draining: () => boolean;
  /** Called after each heartbeat with the moment before which a silent node counts as dead. */
  onBeat: (deadBefore: number) => Promise<void>;
  log: Log;
  now?: () => number;
}

/**
 * This node's place in the cluster: a heartbeat with its room and load into the shared store,
 * which tells every node where a session lives and which node can take one more.
 */
export class Membership implements ClusterRouting {
  readonly nodeId: string;
  private readonly startedAt = new Date().toISOString();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  private stopped = false;
  /**
   * Whether the HTTP server listens yet. The first beat comes before it does (so the node is known
   * alive when its queued runs are taken), and until then it says it has no room: a node restarting
   * on its address was otherwise placed on by the others at once, and their forwards found nothing
   * listening (503 node_unreachable) without the refused-and-silent rule applying, as it had just beaten.
   */
  private listening = false;
  private readonly now: () => number;

  constructor(private readonly opts: MembershipOptions) {
    this.nodeId = opts.config.nodeId;
    this.now = opts.now ?? Date.now;
  }

  /** First heartbeat now (before requests), then every HEARTBEAT_MS. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      // One beat at a time: a slow store must not pile them up.
      this.beating = this.beating.then(() => this.beat());
    }, HEARTBEAT_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.beating;
    await this.opts.nodes
      .stopped(this.nodeId)
      .catch((err: unknown) => this.opts.log.warn({ err }, 'could not mark this node stopped'));
  }

  /** The HTTP server listens: say this node's room now. */
  listens(): void {
    this.listening = true;
    this.reportLoad();
  }

  /** Say this node's load now (a session began or ended), so placement elsewhere does not wait for the next beat. */
  reportLoad(): void {
    if (this.stopped) return;
    this.beating = this.beating.then(() => this.beat(false));
  }

  private async beat(reap = true): Promise<void> {
    if (this.stopped) return;
    try {
      const now = this.now();
      await this.opts.nodes.beat(
        {
          id: this.nodeId,
          max_sessions: this.opts.draining() || !this.listening ? 0 : this.opts.config.MAX_SESSIONS,
          sessions: this.opts.load(),
          started_at: this.startedAt,
        },
        now,
      );
      if (reap) await this.opts.onBeat(now - DEAD_AFTER_MS);
    } catch (err) {
      this.opts.log.warn({ err }, 'cluster heartbeat failed');
    }
  }

  /** A node without NODE_URL is on its own: nobody can reach it, and it reaches nobody. */
  private get single(): boolean {
    return this.nodeId === 'local';
  }

  async ownerUrl(sessionId: string): Promise<string | null> {
    if (this.single) return null;
    const owner = await this.opts.nodes.ownerOf(sessionId);
    if (!owner || owner.node_id === this.nodeId || owner.node_id === 'local') return null;
    const alive = owner.heartbeat_at !== null && owner.heartbeat_at >= this.now() - DEAD_AFTER_MS;
    return alive ? owner.node_id : null;
  }

  async refused(nodeId: string): Promise<boolean> {
    if (this.single || nodeId === this.nodeId) return false;
    const now = this.now();
    if (!(await this.opts.nodes.refused(nodeId, now - REFUSED_AND_SILENT_MS))) return false;
    this.opts.log.warn({ node: nodeId }, 'a node refused a connection and missed its heartbeat: counted dead now');
    await this.opts.onBeat(now - DEAD_AFTER_MS);
    return true;
  }

  /** `nodeId` as the store names it when it is another node beating now (where a request for it goes), else null. */
  async liveNode(nodeId: string): Promise<string | null> {
    if (this.single || nodeId === this.nodeId) return null;
    return (await this.opts.nodes.alive(nodeId, this.now() - DEAD_AFTER_MS)) ?? null;
  }

  /** Another live node with room for a session, the roomiest, with that place taken for the caller; null when none has. */
  async nodeWithRoom(): Promise<string | null> {
    if (this.single) return null;
    return (await this.opts.nodes.claimPlace(this.now() - DEAD_AFTER_MS, this.nodeId)) ?? null;
  }
}
