/** A place in the gate's line. `urgent` may be raised while it waits (a pool start that a create claimed). */
export interface StartTicket {
  urgent: boolean;
}

interface Waiter {
  ticket: StartTicket;
  go: () => void;
}

/**
 * At most `limit` browser starts run at once; the rest wait in line, in order, a start a client is
 * waiting for (urgent) before the warm pool's refills. Ten starts at once on two cores do not finish
 * sooner than ten in a line of two: they share the cores, every one of them is late, and the first
 * one is as late as the last (the field's benchmark, c10: 18.9 s to create). In a line, the first
 * ready browser goes to the first create.
 */
export class StartGate {
  private running = 0;
  private readonly line: Waiter[] = [];

  constructor(readonly limit: number) {}

  /** Starts running now. */
  get active(): number {
    return this.running;
  }

  /** Starts waiting for a place. */
  get waiting(): number {
    return this.line.length;
  }

  /**
   * Wait for a place; resolves with the function that gives it back (call it once, on every path).
   * Aborting while waiting leaves the line and rejects.
   */
  enter(ticket: StartTicket, signal?: AbortSignal): Promise<() => void> {
    const leave = () => {
      this.running--;
      this.next();
    };
    if (signal?.aborted) return Promise.reject(new Error('the browser start was cancelled'));
    if (this.running < this.limit && this.line.length === 0) {
      this.running++;
      return Promise.resolve(once(leave));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        ticket,
        go: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(once(leave));
        },
      };
      const onAbort = () => {
        const i = this.line.indexOf(waiter);
        if (i >= 0) this.line.splice(i, 1);
        reject(new Error('the browser start was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.line.push(waiter);
    });
  }

  private next(): void {
    while (this.running < this.limit && this.line.length) {
      const i = this.line.findIndex((w) => w.ticket.urgent);
      const [waiter] = this.line.splice(i >= 0 ? i : 0, 1);
      this.running++;
      waiter!.go();
    }
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
