import type { StepResult } from '../../contract/runs.ts';
import type { LiveSession } from '../sessions/types.ts';
import type { ActiveRun } from './activeRuns.ts';
import type { RunAi } from './ai.ts';
import { runContained } from './engine/containedRun.ts';
import type { EngineThreads } from './engine/engineThreads.ts';
import type { FlowOutcome } from './engine/replay.ts';
import { handUploads } from './handUploads.ts';
import type { PreparedRun } from './preparedRun.ts';
import type { RunParts, RunServiceDeps } from './runDeps.ts';

/** What runs replay with, chosen after the runs are built: the model comes from the agent, built later. */
export interface EngineChoice {
  /** The runs' engine threads (one waits ready once a flow has run). */
  threads: EngineThreads;
  /** The model for AI steps and self-healing; unset: none. */
  ai?: RunAi;
}

/** What a replay reports to and reads from while its flow runs. */
export type ReplayDeps = Pick<RunServiceDeps, 'config' | 'bus' | 'log' | 'credentials' | 'sessionEvents'> &
  Pick<RunParts, 'runRows' | 'active'> & { engine: EngineChoice };

/**
 * Run the flow in its live session on the engine thread, telling every step as it goes (bus, run
 * row, the session's event log); the outcome, a failed one when its credentials cannot be read.
 */
export async function replayInSession(
  deps: ReplayDeps,
  run: PreparedRun,
  session: LiveSession,
  active: ActiveRun,
): Promise<FlowOutcome> {
  const sessionId = session.id;
  const results: StepResult[] = [];
  try {
    return await runContained({
      hub: session.hub,
      flow: run.flow,
      variables: run.variables,
      privateNetworksAllowed: deps.config.BROWSER_ALLOW_PRIVATE_NETWORKS,
      threads: deps.engine.threads,
      // The browser runs as the session's user: it can read the files only once they are in its own folder.
      filesDir: handUploads(run.filesDir, session),
      sessionId,
      ai: deps.engine.ai,
      heal: run.heal,
      onHealed: (heal) =>
        deps.sessionEvents.append(sessionId, {
          event: 'StepHealed',
          step: heal.index + 1,
          action: heal.action,
          old_selectors: heal.oldSelectors,
          new_selectors: heal.newSelectors,
          // The repair as a suggestion: the dashboard applies new_selectors to this workflow's step (PATCH).
          workflow_id: run.workflowId,
        }),
      signal: active.abort.signal,
      gate: active.gate,
      ...(await credentialsOf(deps, run)),
      onPause: (pause) => deps.active.tellPaused(sessionId, active, pause),
      onDialog: (dialog) => deps.bus.emit('run.dialog', { session_id: sessionId, ...dialog }),
      onStepStart: (index, action, params) =>
        deps.bus.emit('run.stepStarted', { session_id: sessionId, index, action, params }),
      onStep: (index, result, outputs) => {
        results.push(result);
        // Not awaited: the flow does not wait on the store. A late write cannot undo the end (it
        // only touches a running row).
        deps.runRows
          .progress(run.runId, results, outputs)
          .catch((err: unknown) => deps.log.warn({ err }, 'run progress not recorded'));
        deps.bus.emit('run.step', { session_id: sessionId, index, result, outputs });
      },
    });
  } catch (err) {
    // reveal() failed (a credential no longer decrypts): nothing ran.
    return {
      succeeded: false,
      message: `The run could not start: ${err instanceof Error ? err.message : 'its credentials could not be read'}`,
      results: [],
      outputs: {},
      screenshot: null,
    };
  }
}

/** The run's credential values and where each may be typed, for its engine. */
async function credentialsOf(
  deps: Pick<ReplayDeps, 'credentials'>,
  run: PreparedRun,
): Promise<{ credentials: Map<string, string>; credentialOrigins: Map<string, string[]> }> {
  const { values, origins } = await deps.credentials.revealForRun(run.credentials);
  return { credentials: values, credentialOrigins: origins };
}
