import { Link } from 'react-router';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import { failedStep, StepFailure } from '../../components/steps/StepFailure.tsx';

const STATUS: Record<RunStatusResponse['status'], string> = {
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
};

/** The run this session was started for: its state, how far it got, and the way to its page. */
export function SessionRun({ run, workflowName }: { run: RunStatusResponse; workflowName?: string | null }) {
  const done = run.results.filter((r) => r.result.ok).length;
  const state = run.pause ? 'paused' : STATUS[run.status];
  const failedAt = failedStep(run);
  return (
    <section className="card" aria-labelledby="session-run-title">
      <h2 id="session-run-title">Run of {workflowName ? `“${workflowName}”` : 'a workflow'}</h2>
      <p>
        Run: <strong className={`badge ${run.status}`}>{state}</strong> · {done} of {run.total_actions} steps done.{' '}
        <Link to={`/runs/${encodeURIComponent(run.session_id)}`}>Open the run</Link> ·{' '}
        <Link to={`/workflows/${encodeURIComponent(run.workflow_id)}`}>Open the workflow</Link>
      </p>
      {failedAt ? (
        <StepFailure run={run} step={failedAt} />
      ) : (
        run.status === 'failed' && run.message && <p className="notice warn">{run.message}</p>
      )}
    </section>
  );
}
