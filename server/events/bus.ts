import { EventEmitter } from 'node:events';
import type { FileMetadata, PauseState, StepResult } from '../../contract/runs.ts';
import type { SessionClient, SessionEvent } from '../../contract/sessionEvents.ts';
import type { EndReason } from '../../contract/sessions.ts';
import type { DialogSeen, WorkflowRunFacts } from '../domain/runFacts.ts';

/**
 * A finished request as a session's live log tells it (network/requestEvents.ts decides which): the
 * contract's NetworkRequest event without the stamps the log adds.
 */
export type RequestEvent = { kind: 'request' } & Omit<
  Extract<SessionEvent, { event: 'NetworkRequest' }>,
  'event' | 'index' | 'session_id' | 'created_at'
>;

/**
 * Domain events inside one server process. The session manager and the run engine emit; the
 * webhook outbox and GET /api/events (the dashboard's live updates) listen. Keeps domains apart:
 * the browser code knows nothing of webhooks.
 */
export interface BusEvents {
  'session.started': { session_id: string; workflow_id: string; webhook_url?: string; metadata?: string };
  'session.ended': {
    session_id: string;
    workflow_id: string;
    reason: EndReason;
    webhook_url?: string;
    metadata?: string;
  };
  'session.changed': { session_id: string };
  /** A CDP client or a live-view viewer connected to a session (`joined`) or left it. */
  'session.client': { session_id: string; client: SessionClient; joined: boolean };
  /** What the session's pages did: main-frame navigations, console messages, uncaught errors (texts already truncated). */
  'session.page': { session_id: string } & (
    | { kind: 'navigated'; url: string }
    | { kind: 'console'; level: string; text: string }
    | { kind: 'error'; text: string }
    | RequestEvent
  );
  /** A file the session's page downloaded: kept (`ok`) or not, and why (over the cap, cut by the end, not a regular file, …). */
  /** A persisting session's state was saved to its profile as it ended, or why not. */
  'session.profileSaved': {
    session_id: string;
    profile: string;
    version: number | null;
    size: number | null;
    reason?: string;
  };
  'session.download': { session_id: string; filename: string; file_size: number; ok: boolean; reason?: string };
  /** A run waits for a browser on a full host; `position` 1 starts next. */
  'run.queued': { session_id: string; workflow_id: string; position: number };
  /** A queued run left the queue: its browser is starting now. */
  'run.starting': { session_id: string; phase: 'browser' };
  'run.started': {
    session_id: string;
    workflow_id: string;
    total_actions: number;
    webhook_url?: string;
    metadata?: string;
  };
  /** A step is about to run (index from 0); params as replayed, credentials still placeholders. */
  /** A page opened a dialog during a run, and the run answered it (engine/dialogs.ts). */
  'run.dialog': { session_id: string } & DialogSeen;
  'run.stepStarted': { session_id: string; index: number; action: string; params: Record<string, unknown> };
  /** A step finished; `outputs` are all the extract values so far. */
  'run.step': { session_id: string; index: number; result?: StepResult; outputs?: Record<string, string> };
  'run.paused': {
    session_id: string;
    workflow_id: string;
    pause: PauseState;
    vnc_url: string;
    webhook_url?: string;
    metadata?: string;
  };
  'run.resumed': {
    session_id: string;
    workflow_id: string;
    pause: PauseState;
    /** The person's answer, when a message to the run resumed it. */
    answer?: string;
    webhook_url?: string;
    metadata?: string;
  };
  'run.completed': {
    session_id: string;
    workflow_id: string;
    succeeded: boolean;
    message: string;
    outputs: Record<string, string>;
    webhook_url?: string;
    metadata?: string;
    /** For the webhook's Simplex fields. */
    total_actions?: number;
    steps_run?: number;
    screenshot_url?: string | null;
    /** The workflow's metadata and structured_output declaration (types the outputs); absent: none. */
    workflow?: WorkflowRunFacts;
    /** The files the session kept, with signed URLs; read once the session has ended. */
    file_metadata?: FileMetadata[];
  };
}

export class Bus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  emit<K extends keyof BusEvents>(type: K, data: BusEvents[K]): void {
    this.emitter.emit(type, data);
  }

  on<K extends keyof BusEvents>(type: K, listener: (data: BusEvents[K]) => void): () => void {
    this.emitter.on(type, listener);
    return () => this.emitter.off(type, listener);
  }
}
