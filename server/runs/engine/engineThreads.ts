import { Worker } from 'node:worker_threads';
import { engineEntry } from './entry.ts';

/** The engine thread's heap: a flow or page that makes puppeteer hold more ends the run, not the server. */
const ENGINE_HEAP_MB = 512;

/** A thread started ahead, and whether it ended while it waited. */
interface Spare {
  worker: Promise<Worker>;
  ended: boolean;
}

/**
 * The runs' engine threads. Loading the engine (puppeteer-core, mostly) takes a thread about half
 * a second, which a run's first step waited for: once this node has run a flow, one thread is
 * started ahead and waits, so the next run takes it ready and the one after it is started at once.
 * A thread serves one run only (a run's faults end its own thread), and waits for its start
 * message (thread.ts) without doing anything. Until the first run nothing is started: most nodes
 * (and most test servers) that never run a flow pay nothing.
 */
export class EngineThreads {
  private spare: Spare | undefined;
  private closed = false;
  /** Another entry than the bundle's: a test's engine that fails on purpose, started fresh for each run. */
  private entry: URL | undefined;

  /** Runs start from `entry` from now on; undefined: from the bundle again. */
  useEntry(entry: URL | undefined): void {
    this.entry = entry;
  }

  /** A thread for one run. */
  async take(): Promise<Worker> {
    if (this.entry) return start(this.entry);
    const ready = this.spare && !this.spare.ended ? this.spare.worker : engineEntry().then(start);
    this.spare = undefined;
    if (!this.closed) this.spare = this.startSpare();
    const worker = await ready;
    worker.ref();
    return worker;
  }

  /** Ends the waiting thread; none is started after. */
  async close(): Promise<void> {
    this.closed = true;
    const spare = this.spare;
    this.spare = undefined;
    await spare?.worker.then((w) => w.terminate()).catch(() => undefined);
  }

  private startSpare(): Spare {
    const spare: Spare = { worker: engineEntry().then(start), ended: false };
    spare.worker.then(
      (worker) => {
        // A waiting thread keeps no process alive, and one that ended while it waited is not handed out.
        worker.unref();
        worker.once('exit', () => (spare.ended = true));
        worker.on('error', () => (spare.ended = true));
      },
      () => (spare.ended = true),
    );
    return spare;
  }
}

function start(entry: URL): Worker {
  return new Worker(entry, {
    resourceLimits: { maxOldGenerationSizeMb: ENGINE_HEAP_MB },
    stdout: false,
    stderr: false,
  });
}
