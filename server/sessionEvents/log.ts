import { EventEmitter } from 'node:events';
import type { EventsPage, SessionEvent, SessionEventInput } from '../../contract/sessionEvents.ts';
import type { SessionEventsRepo } from '../store/sessionEvents.ts';

const RUN_BEGINS = new Set<SessionEvent['event']>(['RunQueued', 'RunStarted']);
const RUN_ENDS = new Set<SessionEvent['event']>(['RunCompleted', 'RunError']);

/**
 * Each session's event log: numbered, stamped, kept in the store, and told to live subscribers as
 * it grows. A run's session ends before the run's outcome is written (so a caller who sees the
 * outcome sees the ended session too); the log keeps the order a reader expects instead, holding
 * SessionEnded back until the run's last event is in.
 */
export class SessionEventLog {
  private readonly next = new Map<string, number>();
  private readonly openRuns = new Set<string>();
  private readonly heldEnds = new Map<string, SessionEventInput>();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly repo: SessionEventsRepo) {}

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
    if (input.event === 'SessionEnded') this.next.delete(sessionId);
  }

  private write(sessionId: string, input: SessionEventInput): void {
    const index = this.next.get(sessionId) ?? this.repo.count(sessionId);
    const event = { ...input, index, session_id: sessionId, created_at: new Date().toISOString() } as SessionEvent;
    this.repo.insert(sessionId, index, event.event, JSON.stringify(event), event.created_at);
    this.next.set(sessionId, index + 1);
    this.emitter.emit(sessionId, event);
  }

  total(sessionId: string): number {
    return this.next.get(sessionId) ?? this.repo.count(sessionId);
  }

  page(sessionId: string, since: number, limit: number): EventsPage {
    const events = this.repo.from(sessionId, since, limit).map((body) => JSON.parse(body) as SessionEvent);
    const total = this.total(sessionId);
    const nextIndex = events.length ? events.at(-1)!.index + 1 : Math.min(since, total);
    return { events, next_index: nextIndex, total, has_more: nextIndex < total };
  }

  /**
   * Every event from `since` on, in order: what is stored, then what comes. The store is read
   * synchronously, so no event can be written between the history and the subscription.
   */
  follow(sessionId: string, since: number, listener: (e: SessionEvent) => void): () => void {
    let upTo = since;
    for (;;) {
      const { events, has_more } = this.page(sessionId, upTo, 500);
      for (const e of events) listener(e);
      if (events.length) upTo = events.at(-1)!.index + 1;
      if (!has_more) break;
    }
    const live = (e: SessionEvent) => {
      if (e.index >= upTo) listener(e);
    };
    this.emitter.on(sessionId, live);
    return () => this.emitter.off(sessionId, live);
  }

  /** True once the log holds the session's end (and its run's, which comes first). */
  static isLast(e: SessionEvent): boolean {
    return e.event === 'SessionEnded';
  }
}
