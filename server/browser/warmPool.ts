import { randomUUID } from 'node:crypto';
import { BrowserTree, type TreeOptions } from './tree.ts';

export interface WarmPoolOptions {
  size: number;
  /** Everything of TreeOptions but the id, which the pool picks (it becomes the session id). */
  treeOptions: (id: string) => TreeOptions;
  onError: (err: unknown) => void;
}

const REFILL_DELAY_MS = 150;

/**
 * Ready browser trees, so a session is handed out in milliseconds. Refilled one tree at a time in
 * the background (two cores: starting several Chromiums at once slows every one of them); a
 * failing start backs off instead of spinning.
 */
export class WarmPool {
  private readonly ready: BrowserTree[] = [];
  private filling = false;
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private delayTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: WarmPoolOptions) {}

  get size(): number {
    return this.ready.length;
  }

  /** A live, ready tree (the pool refills behind it), or undefined when none is ready. */
  take(): BrowserTree | undefined {
    let tree: BrowserTree | undefined;
    while ((tree = this.ready.shift())) {
      if (tree.alive) {
        // After the hand-out is answered: a few hundred /proc reads need not delay it.
        const promoted = tree;
        setImmediate(() => promoted.promote());
        break;
      }
      void tree.kill();
    }
    // Likewise the refill: spawning blocks the event loop for a moment, so let the response (and
    // the client's first CDP message) through first.
    this.fill(REFILL_DELAY_MS);
    return tree;
  }

  fill(delayMs = 0): void {
    if (delayMs > 0) {
      if (!this.delayTimer) {
        this.delayTimer = setTimeout(() => {
          this.delayTimer = undefined;
          this.fill();
        }, delayMs);
      }
      return;
    }
    if (this.filling || this.closed || this.retryTimer) return;
    if (this.ready.length >= this.opts.size) return;
    this.filling = true;
    void (async () => {
      try {
        while (!this.closed && this.ready.length < this.opts.size) {
          const tree = await BrowserTree.start(this.opts.treeOptions(randomUUID()));
          if (this.closed) {
            await tree.kill();
            return;
          }
          this.failures = 0;
          tree.onExit(() => {
            // A pooled browser died: drop it and start another.
            const i = this.ready.indexOf(tree);
            if (i >= 0) this.ready.splice(i, 1);
            void tree.kill().finally(() => this.fill());
          });
          this.ready.push(tree);
        }
      } catch (err) {
        this.failures++;
        this.opts.onError(err);
        const delay = Math.min(60_000, 1000 * 2 ** Math.min(this.failures, 6));
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.fill();
        }, delay).unref();
      } finally {
        this.filling = false;
      }
    })();
  }

  /** Wait until the pool is full (tests and the benchmark). */
  async whenFull(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.ready.length < this.opts.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.delayTimer);
    const trees = this.ready.splice(0);
    // A start in flight sees `closed` and kills its own tree.
    while (this.filling) await new Promise((r) => setTimeout(r, 20));
    await Promise.all(trees.map((t) => t.kill()));
  }
}
