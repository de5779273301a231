import { Worker } from 'node:worker_threads';
import type { StepResult } from '../../../contract/runs.ts';
import type { Flow } from '../../../contract/workflows.ts';
import type { CdpChannel, CdpHub } from '../../sessions/cdp/hub.ts';
import type { PauseGate, PauseState } from '../pauseGate.ts';
import { redactor } from '../redact.ts';
import { actionOf, firstLine, paramsOf, stepLabel, stoppedBecause, stopReasonOf } from '../stepFailure.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';
import type { EngineStart, FromEngine, ToEngine } from './messages.ts';
import type { FlowOutcome } from './replay.ts';

export const ENGINE_ENTRY = new URL('./thread.mjs', import.meta.url);

/** @puppeteer/replay's default wait, when neither the step nor the flow sets one. */
const DEFAULT_STEP_TIMEOUT_MS = 5000;
/** A step not over this long after its own timeout has a page that stopped answering: its engine is ended. */
const STEP_GRACE_MS = 45_000;
/** After a stop, how long the engine has to say how it ended before it is ended. */
const STOP_GRACE_MS = 10_000;
/** The engine thread's heap: a flow or page that makes puppeteer hold more ends the run, not the server. */
const ENGINE_HEAP_MB = 512;

export interface ContainedRunOptions {
  hub: CdpHub;
  flow: Flow;
  filesDir: string;
  credentials: ReadonlyMap<string, string>;
  /** Where each credential may be typed, by name (allowed_origins; []: any page). */
  credentialOrigins: ReadonlyMap<string, readonly string[]>;
  privateNetworksAllowed: boolean;
  gate: PauseGate;
  /** Aborting stops the run: the current step fails and no further step starts. Aborted with a StopReason, its messages say why. */
  signal: AbortSignal;
  onStepStart?: (index: number, action: string, params: Record<string, unknown>) => void;
  onStep?: (index: number, result: StepResult, outputs: Record<string, string>) => void;
  /** The flow's own pause step closed the gate (the API's pauses are told by whoever asked). */
  onPause?: (state: PauseState) => void;
  onDialog?: (dialog: DialogSeen) => void;
  /** The engine thread's entry; tests hand one that fails on purpose. */
  entry?: URL;
}

/** How long a step may take before its engine is taken to be hung. A pause step waits for a person: no limit. */
function stepDeadline(step: Flow['steps'][number] | undefined, flow: Flow): number | null {
  if (!step || (step.type === 'customStep' && step.name === 'pause')) return null;
  return (step.timeout ?? flow.timeout ?? DEFAULT_STEP_TIMEOUT_MS) + STEP_GRACE_MS;
}

/**
 * Replay a flow in a thread of its own (engine/thread.ts), talking to the session's browser over a
 * channel of its hub. The run's bookkeeping stays here: the steps reported so far, the pause gate,
 * a deadline per step. Whatever happens in the thread (an exception nobody caught, a page that
 * never answers, a heap blown by a page) ends that thread and fails this run with a message naming
 * its step; the server and every other run carry on. Always resolves.
 */
export async function runContained(opts: ContainedRunOptions): Promise<FlowOutcome> {
  const results: StepResult[] = [];
  let outputs: Record<string, string> = {};
  let current: number | undefined;
  let channel: CdpChannel | undefined;
  let worker: Worker | undefined;
  let stepTimer: NodeJS.Timeout | undefined;
  let stopTimer: NodeJS.Timeout | undefined;
  let settle!: (outcome: FlowOutcome) => void;
  const ended = new Promise<FlowOutcome>((resolve) => (settle = resolve));
  let settled = false;

  const send = (msg: ToEngine) => {
    if (!settled) worker?.postMessage(msg);
  };
  const finish = (outcome: FlowOutcome) => {
    if (settled) return;
    settled = true;
    settle(outcome);
  };
  const redact = redactor(opts.credentials);
  /** The engine is gone without an outcome: the run fails at the step it was in, which is recorded as failed. */
  const failEngine = (reason: string) => {
    if (settled) return;
    const why = redact(reason);
    const step = current !== undefined ? opts.flow.steps[current] : undefined;
    const stopped = opts.signal.aborted;
    const because = stoppedBecause(stopReasonOf(opts.signal));
    const cause = stopped ? `${because} while this step ran` : why;
    // Steps report in order: the current one has no result yet when fewer have come in.
    if (step && current !== undefined && results.length <= current) {
      const entry: StepResult = {
        action: actionOf(step),
        params: paramsOf(step),
        result: { ok: false, error: cause },
        timestamp: new Date().toISOString(),
        duration: 0,
      };
      results.push(entry);
      opts.onStep?.(current, entry, { ...outputs });
    }
    const where =
      step && current !== undefined
        ? stepLabel(step, current)
        : stopped
          ? 'The run was stopped before its first step'
          : 'Before its first step';
    finish({
      succeeded: false,
      message: step ? `${where}: ${cause}` : `${where}: ${stopped ? because : cause}`,
      results: [...results],
      outputs,
      screenshot: null,
    });
  };

  /** Answer the engine's wait at the pause gate: go on once it opens, stop when the run is stopped meanwhile. */
  const answerGate = (id: number) =>
    opts.gate.passThrough(opts.signal).then(
      () => send({ t: 'gate', id, go: true }),
      () => send({ t: 'gate', id, go: false }),
    );

  const onAbort = () => {
    send({ t: 'abort', reason: stopReasonOf(opts.signal) });
    stopTimer = setTimeout(() => failEngine('the run was stopped'), STOP_GRACE_MS);
  };

  try {
    channel = await opts.hub.channel({
      message: (msg) => send({ t: 'cdp', data: JSON.stringify(msg) }),
      closed: () => send({ t: 'cdpClosed' }),
    });
    const start: EngineStart = {
      flow: opts.flow,
      filesDir: opts.filesDir,
      credentials: [...opts.credentials],
      credentialOrigins: [...opts.credentialOrigins].map(([name, origins]) => [name, [...origins]]),
      privateNetworksAllowed: opts.privateNetworksAllowed,
    };
    worker = new Worker(opts.entry ?? ENGINE_ENTRY, {
      workerData: start,
      resourceLimits: { maxOldGenerationSizeMb: ENGINE_HEAP_MB },
      stdout: false,
      stderr: false,
    });
    const open = channel;
    worker.on('message', (msg: FromEngine) => {
      switch (msg.t) {
        case 'cdp':
          open.send(msg.data);
          break;
        case 'stepStart': {
          current = msg.index;
          clearTimeout(stepTimer);
          const limit = stepDeadline(opts.flow.steps[msg.index], opts.flow);
          if (limit !== null)
            stepTimer = setTimeout(
              () =>
                failEngine(
                  `the step did not end within ${Math.round(limit / 1000)} s: the page stopped answering (a script that never ends, or a hung renderer)`,
                ),
              limit,
            );
          opts.onStepStart?.(msg.index, msg.action, msg.params);
          break;
        }
        case 'step':
          clearTimeout(stepTimer);
          results.push(msg.result);
          outputs = msg.outputs;
          opts.onStep?.(msg.index, msg.result, msg.outputs);
          break;
        case 'dialog':
          opts.onDialog?.(msg.dialog);
          break;
        case 'beforeStep':
          void answerGate(msg.id);
          break;
        case 'pause': {
          clearTimeout(stepTimer);
          const { state, changed } = opts.gate.pause('internal', msg.message);
          if (changed) opts.onPause?.(state);
          void answerGate(msg.id);
          break;
        }
        case 'done':
          finish({ ...msg.outcome, screenshot: msg.outcome.screenshot && Buffer.from(msg.outcome.screenshot) });
          break;
      }
    });
    worker.on('error', (err) => failEngine(`the run's engine stopped unexpectedly: ${firstLine(err)}`));
    worker.on('exit', (code) => failEngine(`the run's engine stopped unexpectedly (exit code ${code})`));
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
    return await ended;
  } catch (err) {
    failEngine(`the run could not start its engine: ${firstLine(err)}`);
    return await ended;
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
    clearTimeout(stepTimer);
    clearTimeout(stopTimer);
    channel?.close();
    await worker?.terminate().catch(() => undefined);
  }
}
