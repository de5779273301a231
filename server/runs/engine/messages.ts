import type { StepResult } from '../../../contract/runs.ts';
import type { Flow } from '../../../contract/workflows.ts';
import type { StopReason } from '../stepFailure.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';

/** What the run's engine thread starts with (workerData). */
export interface EngineStart {
  flow: Flow;
  filesDir: string;
  /** `{{credentials.NAME}}` values by name. */
  credentials: [string, string][];
  /** Where each may be typed, by name (allowed_origins; []: any page). */
  credentialOrigins: [string, string[]][];
  privateNetworksAllowed: boolean;
}

/** The outcome as it crosses threads: the screenshot as bytes. */
export interface EngineOutcome {
  succeeded: boolean;
  message: string;
  results: StepResult[];
  outputs: Record<string, string>;
  screenshot: Uint8Array | null;
}

/** Messages from the server to the engine thread. */
export type ToEngine =
  | { t: 'cdp'; data: string }
  | { t: 'cdpClosed' }
  /** The run was stopped; `reason` says why, for its message (stepFailure.ts's StopReason). */
  | { t: 'abort'; reason?: StopReason }
  /** The answer to a beforeStep or pause: go on (true) or stop (false). */
  | { t: 'gate'; id: number; go: boolean };

/** Messages from the engine thread to the server. */
export type FromEngine =
  | { t: 'cdp'; data: string }
  | { t: 'stepStart'; index: number; action: string; params: Record<string, unknown> }
  | { t: 'step'; index: number; result: StepResult; outputs: Record<string, string> }
  | { t: 'dialog'; dialog: DialogSeen }
  | { t: 'beforeStep'; id: number }
  | { t: 'pause'; id: number; message: string }
  | { t: 'done'; outcome: EngineOutcome };

export type { Flow };
