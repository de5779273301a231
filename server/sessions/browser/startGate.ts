import { AtCapacity } from '../../domain/errors.ts';

/** A place in the gate's line: `urgent` for a start a client waits for, before the warm pool's refills. */
export interface StartTicket {
  readonly urgent: boolean;
  /** Set by the gate once the start has its place (it runs): a pool start a create may take over. */
  placed?: boolean;
}

/** How an entrant waits: cancelled by `signal`; with `patienceMs`, refused rather than kept waiting. */
export interface EnterOptions {
  signal?: AbortSignal;
  /**
   * A client waits for this start (a create): refused at once when the line of client starts is
   * full, and after this long in line. Without it (the pool's refills, a queued run's start) the
   * entrant waits as long as it takes: nobody holds a request open for it.
   */
  patienceMs?: number;
}

interface Waiter {
  ticket: StartTicket;
  go: () => void;
}

/**
 * Client starts the line holds per place: on a 2-core host a start takes about 1–2 s with two at
 * once, so the last in a full line of 16 starts in about 8–16 s, inside a create's patience; under
 * load a start is slower and the patience refuses the tail of the line instead.
 */
const LINE_PER_PLACE = 8;

/** What a start holds its place for before any has been measured (the order of a 2-core host's). */
const FIRST_GUESS_HOLD_MS = 2_000;

/** Retry-After bounds: at least a second, and never so long that a client gives up on a host that frees soon. */
const RETRY_AFTER_MAX_SECONDS = 60;

/**
 * At most `limit` browser starts run at once; the rest wait in line, in order, a start a client is
 * waiting for (urgent) before the warm pool's refills. Ten starts at once on two cores do not finish
 * sooner than ten in a line of two: they share the cores, every one of them is late, and the first
 * one is as late as the last (the field's benchmark, c10: 18.9 s to create). In a line, the first
 * ready browser goes to the first create. The line of client starts is bounded (`maxWaiting`) and
 * an impatient entrant is refused with AtCapacity (429, Retry-After: when the line ahead should
 * have drained) instead of waiting without end: a host busy starting browsers says so, and no
 * start is given less than the time it needs. A patient entrant (a queued run's start) is never
 * refused and may wait past the bound: each holds a session's place, so MAX_SESSIONS bounds them.
 */
export class StartGate {
  private running = 0;
  private readonly line: Waiter[] = [];
  /** How long a start holds its place, on average (a moving mean): what Retry-After is told from. */
  private holdMs = FIRST_GUESS_HOLD_MS;

  constructor(
    readonly limit: number,
    readonly maxWaiting = limit * LINE_PER_PLACE,
  ) {}

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
   * Aborting while waiting leaves the line and rejects; an impatient entrant the line cannot take,
   * or that waited its patience out, is refused with AtCapacity.
   */
  enter(ticket: StartTicket, { signal, patienceMs }: EnterOptions = {}): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new Error('the browser start was cancelled'));
    if (this.running < this.limit && this.line.length === 0) return Promise.resolve(this.place(ticket));
    const clientsWaiting = this.line.filter((w) => w.ticket.urgent).length;
    if (patienceMs !== undefined && clientsWaiting >= this.maxWaiting) {
      return Promise.reject(
        this.busy(`${this.limit} start at a time and ${clientsWaiting} already wait`, clientsWaiting),
      );
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leaveLine = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.line.indexOf(waiter);
        if (i >= 0) this.line.splice(i, 1);
      };
      const waiter: Waiter = {
        ticket,
        go: () => {
          leaveLine();
          resolve(this.place(ticket));
        },
      };
      const onAbort = () => {
        leaveLine();
        reject(new Error('the browser start was cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (patienceMs !== undefined) {
        timer = setTimeout(() => {
          leaveLine();
          const ahead = this.line.filter((w) => w.ticket.urgent).length;
          reject(this.busy(`no start came free within ${Math.round(patienceMs / 1000)} s`, ahead));
        }, patienceMs);
      }
      this.line.push(waiter);
    });
  }

  /** Take a place; the function handed back gives it back once and notes how long it was held. */
  private place(ticket: StartTicket): () => void {
    this.running++;
    ticket.placed = true;
    const since = performance.now();
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.holdMs = 0.8 * this.holdMs + 0.2 * (performance.now() - since);
      this.running--;
      this.next();
    };
  }

  /** The refusal of a client start: why, and when the `ahead` client starts in line should be through. */
  private busy(why: string, ahead: number): AtCapacity {
    const drainSeconds = Math.ceil((((ahead + 1) / this.limit) * this.holdMs) / 1000);
    const retryAfter = Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(1, drainSeconds));
    return new AtCapacity(`This server is busy starting browsers (${why}); retry in ${retryAfter} seconds`, retryAfter);
  }

  private next(): void {
    while (this.running < this.limit && this.line.length) {
      const i = this.line.findIndex((w) => w.ticket.urgent);
      this.line[i >= 0 ? i : 0]!.go();
    }
  }
}
