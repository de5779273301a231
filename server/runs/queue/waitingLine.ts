import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../../../contract/errors.ts';
import { AtCapacity, Conflict, Unavailable } from '../../domain/errors.ts';
import { shuttingDown } from '../../sessions/refusals.ts';
import { grants, mintTokens, type TokenHashes } from '../../sessions/tokens.ts';
import type {
  Capability,
  CreateSessionInput,
  LiveSession,
  SessionManager,
  SessionTokens,
} from '../../sessions/types.ts';
import { RETRY_AFTER_SECONDS, type RunQueueDeps } from './runQueue.ts';

/** A place in the line: the session's id and tokens now, the session once a browser frees. */
export interface Reservation {
  id: string;
  tokens: SessionTokens;
  /** 1: it starts when the next session ends. */
  position: number;
  /** Resolves once the session is live; rejects when it could not start or left the line while it waited. */
  started: Promise<LiveSession>;
}

/** A session waiting for a free slot: what to start it with, and whom to tell. */
interface Waiting {
  input: CreateSessionInput;
  hashes: TokenHashes;
  resolve: (session: LiveSession) => void;
  reject: (err: unknown) => void;
}

/**
 * The sessions of this node's queued runs, waiting for the session manager to have room: they
 * start in the order they joined, each as soon as a session ends (its afterEnd). At most
 * MAX_QUEUED_RUNS wait. A session taken from the line keeps its place (1) until its browser is
 * live: its caller holds its URLs already, so its viewers still wait meanwhile.
 */
export class WaitingLine {
  /** Waiting sessions by id; Map keeps insertion order, which is the order they start in. */
  private readonly waiting = new Map<string, Waiting>();
  /** Sessions taken from the line whose browser is starting, with the hashes of the tokens answered. */
  private readonly starting = new Map<string, TokenHashes>();

  constructor(
    private readonly deps: {
      config: RunQueueDeps['config'];
      bus: RunQueueDeps['bus'];
      sessions: Pick<SessionManager, 'active' | 'closed' | 'createReserved' | 'get' | 'end'>;
    },
  ) {}

  /** Join the line; throws AtCapacity when MAX_QUEUED_RUNS already wait. */
  join(input: CreateSessionInput): Reservation {
    const { config } = this.deps;
    if (this.deps.sessions.closed) throw shuttingDown();
    if (this.waiting.size >= config.MAX_QUEUED_RUNS) {
      throw new AtCapacity(
        `This server runs at most ${config.MAX_SESSIONS} sessions at once and ${config.MAX_QUEUED_RUNS} runs are already waiting; retry later`,
        RETRY_AFTER_SECONDS,
      );
    }
    const id = randomUUID();
    const { tokens, hashes } = mintTokens();
    const started = new Promise<LiveSession>((resolve, reject) =>
      this.waiting.set(id, { input, hashes, resolve, reject }),
    );
    // Nobody may be listening yet when a reservation fails; the caller's own handler still sees it.
    started.catch(() => undefined);
    const position = this.waiting.size;
    // A slot may be free already (a session ended between the caller's check and now).
    this.startWaiting();
    return { id, tokens, position, started };
  }

  /**
   * Start waiting sessions, oldest first, while there is room; once the manager closes, none will
   * start. Called as a session of this node ends (its afterEnd) and as one joins.
   */
  startWaiting(): void {
    if (this.deps.sessions.closed) return this.close();
    for (const [id, w] of this.waiting) {
      if (this.deps.sessions.active >= this.deps.config.MAX_SESSIONS) return;
      this.waiting.delete(id);
      this.starting.set(id, w.hashes);
      // Its run's page says "starting the browser" from here instead of "queued" until the session is live.
      this.deps.bus.emit('run.starting', { session_id: id, phase: 'browser' });
      this.deps.sessions
        .createReserved(w.input, { id, hashes: w.hashes })
        .finally(() => this.starting.delete(id))
        .then(w.resolve, w.reject);
    }
  }

  /** Sessions in the line or taken from it and still starting. */
  get size(): number {
    return this.waiting.size + this.starting.size;
  }

  /** Where the session waits (1: next), or null once it is live or if it is not in the line. */
  position(id: string): number | null {
    let position = 0;
    for (const key of this.waiting.keys()) {
      position++;
      if (key === id) return position;
    }
    // Out of the line and its browser starting: still first in line until it is live.
    return this.startingHashes(id) ? 1 : null;
  }

  /** The hashes of a session taken from the line whose browser is not live yet. */
  private startingHashes(id: string): TokenHashes | undefined {
    return this.deps.sessions.get(id) ? undefined : this.starting.get(id);
  }

  /** The position of the waiting session `token` opens for `capability`, else null (constant-time like authorize). */
  waitingFor(id: string, token: string | undefined, capability: Capability): number | null {
    const hashes = this.waiting.get(id)?.hashes ?? this.startingHashes(id);
    // grants() compares against a decoy when there are no hashes: the time says nothing of whether the session waits.
    return grants(hashes, token, capability) ? this.position(id) : null;
  }

  /** Take the session out of the line (its start rejects), or end it when its browser is starting. */
  async leave(id: string): Promise<void> {
    const waiting = this.waiting.get(id);
    if (waiting) {
      this.waiting.delete(id);
      waiting.reject(new Conflict('The session was ended while it waited for a browser'));
      return;
    }
    this.starting.delete(id);
    await this.deps.sessions.end(id, 'stopped');
  }

  /** The server is stopping: every waiting session's start rejects. */
  close(): void {
    const stopped = new Unavailable(ErrorCode.shuttingDown, 'The server stopped before a browser was free');
    for (const w of this.waiting.values()) w.reject(stopped);
    this.waiting.clear();
  }
}
