import type { RunStatusResponse } from '../../../contract/runs.ts';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { failedStep, StepFailure } from '../../components/steps/StepFailure.tsx';
import { runStart } from './run-start.ts';
import { RunStartPhases } from './RunStartPhases.tsx';

/**
 * Each step as it completes, then the outcome and the outputs. `flowSteps` (the workflow's steps,
 * when known) lists the steps still to come while the run goes on; `events` (its session's, as
 * they come) show its start until its first page is open. A failed step says why once, in words.
 */
export function RunSteps({
  run,
  flowSteps,
  events = [],
  screenshotShown = false,
}: {
  run: RunStatusResponse;
  flowSteps?: readonly Record<string, unknown>[];
  events?: readonly SessionEvent[];
  /** The page shows the final screenshot already: the failed step does not repeat it. */
  screenshotShown?: boolean;
}) {
  const done = run.results.length;
  // Only while the saved flow is the one running (same length): an edited workflow's steps would mislead.
  const toCome = !run.completed && flowSteps?.length === run.total_actions ? flowSteps.slice(done) : [];
  const start = runStart(events);
  const starting = !run.completed && !run.pause && done === 0 && start.phases.length > 0 && !start.over;
  const failedAt = failedStep(run);
  return (
    <>
      {starting && <RunStartPhases start={start} />}
      {!run.completed && !starting && (
        <p className="status" role="status">
          {run.status === 'queued'
            ? `Queued${run.queue_position ? ` at position ${run.queue_position}` : ''}: the run starts when a browser frees.`
            : run.pause
              ? `Paused at step ${Math.min(done + 1, run.total_actions)} of ${run.total_actions}.`
              : `Running… ${done} of ${run.total_actions} steps done.`}
        </p>
      )}
      {run.completed && (
        <div className={`notice ${run.succeeded ? 'ok' : 'error'}`} role="status" data-testid="outcome">
          <p>
            {failedAt ? (
              // Why it failed is said once, at the step.
              <strong>
                Failed at step {failedAt} of {run.total_actions}.
              </strong>
            ) : (
              <>
                <strong>{run.succeeded ? 'Succeeded.' : 'Failed.'}</strong>{' '}
                <span className="wrap-anywhere">{run.message}</span>
              </>
            )}
          </p>
          {run.completed_at && <p className="hint">Finished {new Date(run.completed_at).toLocaleString()}</p>}
        </div>
      )}
      <ol className="steps" aria-label="Steps">
        {run.results.map((r, i) => (
          <li key={i}>
            <div className="row spread">
              <span>
                <span aria-hidden="true">{r.result.ok ? '✓' : '✗'}</span> <span className="step-number">{i + 1}.</span>{' '}
                <strong>{r.action}</strong>
                <span className="visually-hidden">{r.result.ok ? ' succeeded' : ' failed'}</span>{' '}
                <span className="hint truncate" title={describeParams(r.params)}>
                  {describeParams(r.params)}
                </span>
              </span>
              <span className="hint">{r.duration} ms</span>
            </div>
            {i + 1 === failedAt ? (
              <StepFailure run={run} step={failedAt} showScreenshot={!screenshotShown} />
            ) : (
              r.result.error && <p className="field-error wrap-anywhere">{r.result.error}</p>
            )}
            {r.result.output !== undefined && <p className="hint wrap-anywhere">Output: {r.result.output}</p>}
          </li>
        ))}
        {toCome.map((step, i) => (
          <li key={`next-${i}`} className="step-to-come">
            <span>
              <span aria-hidden="true">○</span> <span className="step-number">{done + i + 1}.</span>{' '}
              <strong>{stepName(step)}</strong>
              <span className="visually-hidden">{i === 0 && run.pause ? ' (paused here)' : ' (to come)'}</span>{' '}
              <span className="hint truncate" title={describeParams(step)}>
                {describeParams(step)}
              </span>
            </span>
          </li>
        ))}
      </ol>
      {run.completed && (
        <>
          <h3>Outputs</h3>
          {Object.keys(run.outputs).length === 0 ? (
            <p className="status">No outputs (the workflow has no extract steps, or they did not run).</p>
          ) : (
            <dl className="outputs" data-testid="outputs">
              {Object.entries(run.outputs).map(([k, v]) => (
                <div key={k} className="row">
                  <dt>
                    <code>{k}</code>
                  </dt>
                  <dd style={{ margin: 0 }} className="wrap-anywhere">
                    {v}
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </>
      )}
    </>
  );
}

/** A step as the run's results name it: its type, or a custom step's name. */
function stepName(step: Record<string, unknown>): string {
  return step.type === 'customStep' && typeof step.name === 'string' ? step.name : String(step.type);
}

/** A short readable hint of what a step did: its url, value or first selector. */
function describeParams(p: Record<string, unknown>): string {
  if (typeof p.url === 'string') return p.url;
  const params = p.parameters as Record<string, unknown> | undefined;
  const selectors = (p.selectors ?? params?.selectors) as unknown;
  const first = Array.isArray(selectors) ? [selectors[0]].flat()[0] : undefined;
  const value = typeof p.value === 'string' ? ` = ${p.value}` : '';
  return typeof first === 'string' ? `${first}${value}` : value.slice(3);
}
