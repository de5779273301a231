import { EventEmitter } from 'node:events';
import {
  withSimplexFields,
  type EventsPage,
  type SessionEvent,
  type SessionEventInput,
} from '../../contract/sessionEvents.ts';
import type { SessionEventsRepo } from '../store/sessionEvents.ts';
import { redactEvent } from './redactEvent.ts';

const RUN_BEGINS = new Set<SessionEvent['event']>(['RunQueued', 'RunStarted']);
const RUN_ENDS = new Set<SessionEvent['event']>(['RunCompleted', 'RunError']);

/**
 * Each session's event log: numbered, stamped, kept in the store, and told to live subscribers as
 * it grows. A run's session ends before the run's outcome is written (so a caller who sees the
 * outcome sees the ended session too); the log keeps the order a reader expects instead, holding
 * SessionEnded back until the run's last event is in. Every event is redacted as it is written
 * (redactEvent.ts): what the store holds, and so every route and stream, has no credential value.
 */
export class SessionEventLog {
  private readonly next = new Map<string, number>();
  /** Each session's writes, one after another: an event's index is its place in the store. */
  private readonly writes = new Map<string, Promise<void>>();
  private readonly openRuns = new Set<string>();
  private readonly heldEnds = new Map<string, SessionEventInput>();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly repo: SessionEventsRepo,
    /** A write that failed (the store closing under a late event): told, never thrown at whoever emitted. */
    private readonly onWriteError: (err: unknown) => void,
    /** What hides the stored credentials' values (SessionNetworks.redact), asked before each write. */
    private readonly redaction: () => Promise<(text: string) => string> = async () => (text) => text,
  ) {}

  append(sessionId: string, input: SessionEventInput): void {
    if (input.event === 'SessionEnded' && this.openRuns.has(sessionId)) {
      this.heldEnds.set(sessionId, input);
      return;
    }
    this.write(sessionId, input);
    if (RUN_BEGINS.has(input.event)) this.openRuns.add(sessionId);
    if (RUN_ENDS.has(input.event)) {
      this.openRuns.delete(sessionId);
      const held = this.heldEnds.get(sessionId);
      this.heldEnds.delete(sessionId);
      if (held) this.write(sessionId, held);
    }
  }

  private write(sessionId: string, input: SessionEventInput): void {
    const created_at = new Date().toISOString();
    const done = (this.writes.get(sessionId) ?? Promise.resolve())
      .then(async () => {
        const event = await this.insert(
          sessionId,
          redactEvent(input, await this.redaction()),
          created_at,
          this.next.get(sessionId) ?? (await this.repo.count(sessionId)),
        );
        this.next.set(sessionId, event.index + 1);
        this.emitter.emit(sessionId, event);
      })
      .catch(this.onWriteError)
      .finally(() => {
        // The last write of an ended session: nothing more is kept for it in memory.
        if (this.writes.get(sessionId) !== done) return;
        this.writes.delete(sessionId);
        if (input.event === 'SessionEnded') this.next.delete(sessionId);
      });
    this.writes.set(sessionId, done);
  }

  /**
   * Store the event at `index`. The index this process counted may have been taken by another
   * node meanwhile: one that reaped this session's node, thought dead, and logged the end of its
   * run. Then the event goes after what the store holds, once; any other failure is the caller's.
   */
  private async insert(
    sessionId: string,
    input: SessionEventInput,
    created_at: string,
    index: number,
    retried = false,
  ): Promise<SessionEvent> {
    // The schema's order, which reading the store back gives: a live event and a stored one read alike.
    const event = withSimplexFields({ index, session_id: sessionId, created_at, ...input });
    try {
      await this.repo.insert(event);
      return event;
    } catch (err) {
      const stored = await this.repo.count(sessionId);
      if (retried || stored <= index) throw err;
      return this.insert(sessionId, input, created_at, stored, true);
    }
  }

  /** Resolves once every event appended so far for the session is in the store. */
  private async written(sessionId: string): Promise<void> {
    await this.writes.get(sessionId);
  }

  async total(sessionId: string): Promise<number> {
    await this.written(sessionId);
    return this.next.get(sessionId) ?? this.repo.count(sessionId);
  }

  async page(sessionId: string, since: number, limit: number): Promise<EventsPage> {
    await this.written(sessionId);
    const events = await this.repo.from(sessionId, since, limit);
    const total = await this.total(sessionId);
    const nextIndex = events.length ? events.at(-1)!.index + 1 : Math.min(since, total);
    return { events, next_index: nextIndex, total, has_more: nextIndex < total };
  }

  /**
   * Every event from `since` on, in order: what is stored, then what comes. Live events are
   * listened for before the store is read and held until the history is out, so none falls
   * between the two; an index already sent is not sent again. Returns the unsubscribe.
   */
  follow(sessionId: string, since: number, listener: (e: SessionEvent) => void): () => void {
    let upTo = since;
    let held: SessionEvent[] | null = [];
    let stopped = false;
    const deliver = (e: SessionEvent) => {
      if (stopped || e.index < upTo) return;
      upTo = e.index + 1;
      listener(e);
    };
    const live = (e: SessionEvent) => (held ? held.push(e) : deliver(e));
    this.emitter.on(sessionId, live);
    void (async () => {
      try {
        for (;;) {
          const { events, has_more } = await this.page(sessionId, upTo, 500);
          events.forEach(deliver);
          if (!has_more || stopped) break;
        }
      } catch (err) {
        this.onWriteError(err);
      }
      const waiting = held ?? [];
      held = null;
      waiting.forEach(deliver);
    })();
    return () => {
      stopped = true;
      this.emitter.off(sessionId, live);
    };
  }
  /** True once the log holds the session's end (and its run's, which comes first). */
  static isLast(e: SessionEvent): boolean {
    return e.event === 'SessionEnded';
  }
}
