import type { Worker } from 'node:worker_threads';
import type { StepResult } from '../../../contract/runs.ts';
import type { Flow } from '../../../contract/steps.ts';
import type { VariableValues } from '../fillTemplate.ts';
import { fillPlaceholders } from '../variables.ts';
import type { CdpChannel, SessionCdp } from '../../sessions/cdp/hub.ts';
import type { PauseGate, PauseState } from '../pauseGate.ts';
import { redactor } from '../../credentials/redact.ts';
import { actionOf, firstLine, paramsOf, stepLabel, stoppedBecause, stopReasonOf } from '../stepFailure.ts';
import type { DialogSeen } from '../../domain/runFacts.ts';
import type { RunAi } from '../ai.ts';
import type { EngineStart, FromEngine, StepHeal, ToEngine } from './messages.ts';
import type { FlowOutcome } from './replay.ts';
import { pageWaitOf } from './stepTimeout.ts';
import type { EngineThreads } from './engineThreads.ts';

/**
 * The last resort: a step not over this long after its own timeout is ended with its engine. The
 * engine ends a step whose page stopped answering itself, soon after its timeout (stepWatch.ts):
 * this catches what that does not (the engine's own thread stuck).
 */
const STEP_GRACE_MS = 45_000;
/** After a stop, how long the engine has to say how it ended before it is ended. */
const STOP_GRACE_MS = 10_000;
/**
 * How long one model call of a run may take before the step counts as hung, by kind. Longer than
 * any page wait: an extract is a snapshot plus up to two model calls (a retry with the validation
 * errors), each of which a slow local model may take a minute or two over; act is the agent's
 * whole loop, up to 20 tool calls with a model call each; heal is a snapshot and one call. The
 * RunAi bounds its own calls; these only catch one that never answers.
 */
const AI_CALL_LIMIT_MS = { extract: 5 * 60_000, act: 15 * 60_000, heal: 3 * 60_000 } as const;
/** What an AI step says when the run has no RunAi at all (the agent that implements it was not built). */
export const NO_RUN_AI_MESSAGE =
  'This step needs a model and none is configured: set MODEL_BASE_URL and MODEL_NAME (an OpenAI-compatible server), or MODEL_PROVIDER with MODEL_NAME and MODEL_API_KEY';

export interface ContainedRunOptions {
  hub: SessionCdp;
  /** The stored flow: the engine fills each step's placeholders as it runs it. */
  flow: Flow;
  /** The run's variables. */
  variables?: VariableValues;
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
  /** The run's session: what the RunAi acts on. */
  sessionId?: string;
  /** The model, for AI steps and self-healing; without one those fail with NO_RUN_AI_MESSAGE. */
  ai?: RunAi;
  /** run_workflow's heal: repair click/change/hover steps whose selectors all fail. */
  heal?: boolean;
  /** A step self-healing repaired, which then succeeded. */
  onHealed?: (heal: StepHeal) => void;
  /** Where the run's engine thread comes from (one started ahead, when there is one). */
  threads: EngineThreads;
}

/** How long a step may take before its engine is taken to be hung. A pause step waits for a person: no limit. */
function stepDeadline(step: Flow['steps'][number] | undefined, flow: Flow): number | null {
  if (!step) return null;
  const pageWait = pageWaitOf(step, flow.timeout);
  if (pageWait !== null) return pageWait + STEP_GRACE_MS;
  // An AI step is a model call (or the agent's loop), not a page wait: its own, longer limit.
  if (step.type === 'customStep' && (step.name === 'act' || step.name === 'extract'))
    return AI_CALL_LIMIT_MS[step.name] + STEP_GRACE_MS;
  return null;
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
  /** The steps as the run reports them: variables filled (engine/replay.ts fills them alike). */
  const shown = fillPlaceholders(opts.flow, opts.variables ?? {});
  /** The engine is gone without an outcome: the run fails at the step it was in, which is recorded as failed. */
  const failEngine = (reason: string) => {
    if (settled) return;
    const why = redact(reason);
    const step = current !== undefined ? shown.steps[current] : undefined;
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
      (answer) => send({ t: 'gate', id, go: true, answer }),
      () => send({ t: 'gate', id, go: false }),
    );

  /** The step's hang deadline, (re)armed: at its start, and around each model call it makes. */
  const armStep = (limit: number | null, what: string) => {
    clearTimeout(stepTimer);
    if (limit !== null && !settled) stepTimer = setTimeout(() => failEngine(what), limit);
  };
  // The engine did not end the step itself, as it does for a page that stopped answering: all
  // that is known is that the step, the browser or the engine did not answer.
  const notEnded = (limit: number) =>
    `the step did not end within ${Math.round(limit / 1000)} s: the page, the browser or the run's engine stopped answering`;

  /** Ended when the run ends however it ends (a hung engine too), so no model call or agent outlives it. */
  const runOver = new AbortController();
  const aiSignal = AbortSignal.any([opts.signal, runOver.signal]);
  /** Answer the engine's model request through the RunAi; a stop, or the run's end, aborts the call. */
  const answerAi = async (msg: Extract<FromEngine, { t: 'ai' }>) => {
    const limit = AI_CALL_LIMIT_MS[msg.kind] + STEP_GRACE_MS;
    armStep(limit, `the model did not answer within ${Math.round(limit / 1000)} s`);
    try {
      const ai = opts.ai;
      const available = ai ? ai.available() : { ok: false as const, message: NO_RUN_AI_MESSAGE };
      if (!ai || !available.ok) throw new Error(available.ok ? NO_RUN_AI_MESSAGE : available.message);
      if (!opts.sessionId) throw new Error("the run's session is not known");
      const value =
        msg.kind === 'extract'
          ? await ai.extract(opts.sessionId, { ...msg.params, secrets: opts.credentials }, aiSignal)
          : msg.kind === 'act'
            ? await ai.act(opts.sessionId, { ...msg.params, secrets: opts.credentials }, aiSignal)
            : await ai.heal(opts.sessionId, { ...msg.params, secrets: opts.credentials }, aiSignal);
      send({ t: 'aiDone', id: msg.id, ok: true, value: value ?? null });
    } catch (err) {
      send({ t: 'aiDone', id: msg.id, ok: false, error: redact(firstLine(err)) });
    } finally {
      // The rest of the step (a healed step's retry) has its usual deadline again.
      if (current !== undefined && results.length <= current) {
        const rest = stepDeadline(opts.flow.steps[current], opts.flow);
        armStep(rest, notEnded(rest ?? 0));
      }
    }
  };

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
      variables: opts.variables ?? {},
      filesDir: opts.filesDir,
      credentials: [...opts.credentials],
      credentialOrigins: [...opts.credentialOrigins].map(([name, origins]) => [name, [...origins]]),
      privateNetworksAllowed: opts.privateNetworksAllowed,
      heal: opts.heal ?? false,
    };
    worker = await opts.threads.take();
    worker.postMessage({ t: 'start', start } satisfies ToEngine);
    const open = channel;
    worker.on('message', (msg: FromEngine) => {
      switch (msg.t) {
        case 'cdp':
          open.send(msg.data);
          break;
        case 'stepStart': {
          current = msg.index;
          const limit = stepDeadline(opts.flow.steps[msg.index], opts.flow);
          armStep(limit, notEnded(limit ?? 0));
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
        case 'ai':
          void answerAi(msg);
          break;
        case 'healed':
          opts.onHealed?.(msg.heal);
          break;
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
    runOver.abort(new Error('the run has ended'));
    opts.signal.removeEventListener('abort', onAbort);
    clearTimeout(stepTimer);
    clearTimeout(stopTimer);
    channel?.close();
    await worker?.terminate().catch(() => undefined);
  }
}
