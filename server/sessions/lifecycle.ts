import type { Log } from '../log.ts';
import { within } from '../domain/within.ts';
import type { EndReason, LiveSession } from './types.ts';

/** The session's X display as it goes live (a screen recorder reads it). */
export interface LiveDisplay {
  display: string;
  xauthority: string;
  /** The IPC namespace its processes share, when it has one of its own. */
  ipc?: string;
}

/**
 * What one other domain does at a session's turning points, without the browser code knowing it.
 * Each phase is optional; all subscribers of a phase run together.
 */
export interface SessionPhases {
  /** The session has its id and its record; its browser is about to start (or be taken from the pool). */
  starting?(sessionId: string): Promise<void> | void;
  /** The session is live (browser, display and VNC up), before create() returns its URLs. */
  live?(session: LiveSession, display: LiveDisplay | null): Promise<void> | void;
  /** The session is ending and its browser is still up: the last moment to read from it. */
  beforeEnd?(session: LiveSession, reason: EndReason): Promise<void> | void;
  /** The session's processes are gone (every path: stopped, timed out, crashed, server closing). */
  afterEnd?(sessionId: string, reason: EndReason): Promise<void> | void;
}

/** A subscriber to the lifecycle: its phases and the name the log calls it by. */
export interface SessionSubscriber extends SessionPhases {
  readonly name: string;
}

export type Phase = keyof SessionPhases;

/**
 * Longest each phase waits for one subscriber. An overrun is logged and the session goes on
 * (the subscriber's work may still finish behind it). beforeEnd is short: the browser is still
 * running, holding a session's end for everyone; the others are hang guards.
 */
export const PHASE_BOUNDS_MS: Record<Phase, number> = {
  starting: 10_000,
  live: 30_000,
  beforeEnd: 5_000,
  afterEnd: 30_000,
};

/**
 * A session's turning points and who acts on them, in the order they were subscribed (services.ts
 * holds the one list). A subscriber that throws or overruns is logged by name and stops neither the
 * session's start nor its end: the manager awaits these and never sees a failure.
 */
export class SessionLifecycle {
  private readonly subscribers: SessionSubscriber[] = [];

  constructor(
    private readonly log: Log,
    private readonly bounds: Record<Phase, number> = PHASE_BOUNDS_MS,
  ) {}

  /** Add subscribers, before the server takes requests. */
  subscribe(...subscribers: SessionSubscriber[]): void {
    this.subscribers.push(...subscribers);
  }

  /** The subscribers' names, in order (for the log at start and for tests). */
  get names(): string[] {
    return this.subscribers.map((s) => s.name);
  }

  starting(sessionId: string): Promise<void> {
    return this.run('starting', sessionId, (s) => s.starting?.(sessionId));
  }

  live(session: LiveSession, display: LiveDisplay | null): Promise<void> {
    return this.run('live', session.id, (s) => s.live?.(session, display));
  }

  beforeEnd(session: LiveSession, reason: EndReason): Promise<void> {
    return this.run('beforeEnd', session.id, (s) => s.beforeEnd?.(session, reason));
  }

  afterEnd(sessionId: string, reason: EndReason): Promise<void> {
    return this.run('afterEnd', sessionId, (s) => s.afterEnd?.(sessionId, reason));
  }

  private async run(phase: Phase, sessionId: string, call: (s: SessionSubscriber) => unknown): Promise<void> {
    const ms = this.bounds[phase];
    await Promise.all(
      this.subscribers
        .filter((s) => s[phase])
        .map(async (s) => {
          try {
            // Called at once, as the phase is reached; a synchronous throw is caught like a rejection.
            const work = new Promise((resolve) => resolve(call(s)));
            await within(work, ms, `${s.name} took over ${ms} ms at ${phase}`);
          } catch (err) {
            this.log.warn(
              { err, session_id: sessionId, subscriber: s.name, phase },
              `session ${phase}: ${s.name} failed`,
            );
          }
        }),
    );
  }
}
