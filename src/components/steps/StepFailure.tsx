import { Link } from 'react-router';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import './step-failure.css';

type RunOutcome = Pick<RunStatusResponse, 'completed' | 'succeeded' | 'results'>;

/** The workflow editor, opened at one step (numbered from 1) of the workflow. */
export const stepEditorPath = (workflowId: string, step: number) =>
  `/workflows/${encodeURIComponent(workflowId)}#step-${step}`;

/**
 * The step (from 1) a failed run stopped at, when it stopped at one: its last result, failed. A run
 * that failed before its first step, or between steps, has none.
 */
export function failedStep(run: RunOutcome): number | undefined {
  const last = run.results.at(-1);
  return run.completed && !run.succeeded && last && !last.result.ok ? run.results.length : undefined;
}

const EDITOR = 'the workflow editor';

/**
 * Why the run failed at `step`, once: the run's message (ours, in words; the step's own result
 * keeps the browser library's raw error for API readers) with "the workflow editor" a link to that
 * step, and the page as it was when it failed.
 */
export function StepFailure({
  run,
  step,
  showScreenshot = true,
}: {
  run: Pick<RunStatusResponse, 'message' | 'workflow_id' | 'screenshot'>;
  step: number;
  /** Off where the page already shows the screenshot large. */
  showScreenshot?: boolean;
}) {
  const to = stepEditorPath(run.workflow_id, step);
  const at = run.message.lastIndexOf(EDITOR);
  return (
    <div className="step-failure" data-testid="step-failure">
      <p className="field-error wrap-anywhere">
        {at >= 0 ? (
          <>
            {run.message.slice(0, at)}
            <Link to={to}>{EDITOR}</Link>
            {run.message.slice(at + EDITOR.length)}
          </>
        ) : (
          <>
            {run.message} <Link to={to}>Open step {step} in the workflow editor</Link>.
          </>
        )}
      </p>
      {showScreenshot && run.screenshot && (
        <figure className="step-failure-shot">
          <img className="screenshot" src={run.screenshot} alt={`The page when step ${step} failed`} />
          <figcaption className="hint">The page when step {step} failed.</figcaption>
        </figure>
      )}
    </div>
  );
}
