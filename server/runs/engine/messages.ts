import type { StepResult } from '../../../contract/runs.ts';
import type { Flow } from '../../../contract/steps.ts';
import type { StopReason } from '../stepFailure.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';

/** What the run's engine thread starts with (workerData). */
export interface EngineStart {
  /** The stored flow, its placeholders unfilled. */
  flow: Flow;
  /** The run's variables, filled into each step as it runs. */
  variables: Record<string, string | number | boolean>;
  filesDir: string;
  /** `{{credentials.NAME}}` values by name. */
  credentials: [string, string][];
  /** Where each may be typed, by name (allowed_origins; []: any page). */
  credentialOrigins: [string, string[]][];
  privateNetworksAllowed: boolean;
  /** The run asked for self-healing (run_workflow's heal): a click/change/hover none of whose selectors match asks the model. */
  heal: boolean;
}

/** What the engine asks of the model (the server's RunAi, runs/ai.ts), by kind. */
export type AiRequest =
  | { kind: 'extract'; params: { instruction: string; schema?: Record<string, unknown>; selector?: string } }
  | { kind: 'act'; params: { instruction: string; maxSteps: number } }
  | { kind: 'heal'; params: { type: string; selectors: unknown[] } };

/** A step repaired by self-healing: reported as a StepHealed session event. */
export interface StepHeal {
  /** 0-based. */
  index: number;
  action: string;
  oldSelectors: unknown[];
  newSelectors: string[][];
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
  /** The run, the thread's first message. */
  | { t: 'start'; start: EngineStart }
  | { t: 'cdp'; data: string }
  | { t: 'cdpClosed' }
  /** The run was stopped; `reason` says why, for its message (stepFailure.ts's StopReason). */
  | { t: 'abort'; reason?: StopReason }
  /** The answer to a beforeStep or pause: go on (true, with the person's answer when a message resumed it) or stop (false). */
  | { t: 'gate'; id: number; go: boolean; answer?: string | null }
  /** The answer to an `ai` request: extract's JSON value, act's summary, heal's selectors (or null). */
  | { t: 'aiDone'; id: number; ok: true; value: unknown }
  | { t: 'aiDone'; id: number; ok: false; error: string };

/** Messages from the engine thread to the server. */
export type FromEngine =
  | { t: 'cdp'; data: string }
  | { t: 'stepStart'; index: number; action: string; params: Record<string, unknown> }
  | { t: 'step'; index: number; result: StepResult; outputs: Record<string, string> }
  | { t: 'dialog'; dialog: DialogSeen }
  | { t: 'beforeStep'; id: number }
  | { t: 'pause'; id: number; message: string }
  /** Ask the model (answered by `aiDone`); the step's deadline is extended meanwhile. */
  | ({ t: 'ai'; id: number } & AiRequest)
  | { t: 'healed'; heal: StepHeal }
  | { t: 'done'; outcome: EngineOutcome };

export type { Flow };
