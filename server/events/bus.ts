import { EventEmitter } from 'node:events';

/**
 * Domain events inside one server process. The session manager and the run engine emit; the
 * webhook outbox and GET /api/events (the dashboard's live updates) listen. Keeps domains apart:
 * the browser code knows nothing of webhooks.
 */
export interface BusEvents {
  'session.started': { session_id: string; workflow_id: string; webhook_url?: string; metadata?: string };
  'session.ended': { session_id: string; workflow_id: string; reason: string; webhook_url?: string; metadata?: string };
  'session.changed': { session_id: string };
  'run.started': { session_id: string; workflow_id: string; webhook_url?: string; metadata?: string };
  'run.step': { session_id: string; index: number };
  'run.completed': { session_id: string; workflow_id: string; succeeded: boolean; message: string; outputs: Record<string, string>; webhook_url?: string; metadata?: string };
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
