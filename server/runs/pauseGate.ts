import { randomUUID } from 'node:crypto';
import type { PauseState, PauseType } from '../../contract/runs.ts';

// The contract declares a pause (the run's status answers it); the run's code names it through the gate.
export type { PauseState };

/**
 * The human-in-the-loop gate of one run. The flow passes through it before each step; a pause
 * closes it (through the API, `external`, or by the flow's own pause step, `internal`) and a
 * resume opens it again. The session's timeout is not stopped: a person has the session's time.
 */
export class PauseGate {
  private state: PauseState | null = null;
  private waiters: ((answer: string | null) => void)[] = [];

  get current(): PauseState | null {
    return this.state;
  }

  /** Close the gate. Pausing a paused run changes nothing and answers the pause already in place. */
  pause(type: PauseType, message: string | null): { state: PauseState; changed: boolean } {
    if (this.state) return { state: this.state, changed: false };
    this.state = { key: randomUUID(), type, message };
    return { state: this.state, changed: true };
  }

  /**
   * Open the gate, handing the waiting flow the person's `answer` (a message to the run), if any;
   * the pause that was lifted, or null when the run was not paused.
   */
  resume(answer: string | null = null): PauseState | null {
    const lifted = this.state;
    this.state = null;
    for (const wake of this.waiters.splice(0)) wake(answer);
    return lifted;
  }

  /** Resolves at once when open (null), else when resumed, with the answer it was resumed with; rejects when `signal` aborts (the run stops). */
  passThrough(signal?: AbortSignal): Promise<string | null> {
    if (!this.state) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(new Error('the run was stopped while paused'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push((answer) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      });
    });
  }
}
