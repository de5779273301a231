import { Suspense } from 'react';
import { Link, useParams } from 'react-router';
import { isStatus } from '../../api/errors.ts';
import { useRunStatus } from '../../api/runs/get-run-status.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { LazyVncViewer } from '../../components/LazyViewers.tsx';
import { recallRun } from './run-memory.ts';
import { SessionInspector } from '../inspector/SessionInspector.tsx';
import { PausedRun } from './PausedRun.tsx';
import { RunSteps } from './RunSteps.tsx';

export function RunProgressPage() {
  const { sessionId = '' } = useParams();
  const status = useRunStatus(sessionId);
  const remembered = recallRun(sessionId);
  const run = status.data;
  const live = !run?.completed;

  return (
    <>
      <p>
        <Link to="/runs">← Runs</Link> · <Link to="/run">Run another</Link>
      </p>
      <h1>Run{remembered?.workflowName ? `: ${remembered.workflowName}` : ''}</h1>
      <p className="lead">
        Session <code>{sessionId}</code>
      </p>
      {run?.pause && <PausedRun sessionId={sessionId} pause={run.pause} vncUrl={remembered?.vncUrl} />}
      <div className="grid-2">
        <section aria-labelledby="live-title">
          <h2 id="live-title">Live view</h2>
          {run?.pause ? (
            <p className="status">The run is paused: the interactive view is above.</p>
          ) : remembered?.vncUrl && live ? (
            <Suspense fallback={<p className="status">Loading the viewer…</p>}>
              <LazyVncViewer url={remembered.vncUrl} viewOnly scale="fit" className="viewer-frame" label="Live view of the run" />
            </Suspense>
          ) : run?.screenshot ? (
            <figure style={{ margin: 0 }}>
              <img className="screenshot" src={run.screenshot} alt="The page when the run ended" />
              <figcaption className="hint">The final page.</figcaption>
            </figure>
          ) : (
            <p className="status">{live ? 'The live view is not available here (open this run from the Run page to watch it).' : 'The run has ended.'}</p>
          )}
        </section>
        <section aria-labelledby="steps-title">
          <h2 id="steps-title">Progress</h2>
          {status.isPending && <p className="status" role="status">Loading the run…</p>}
          {status.isError &&
            (isStatus(status.error, 404) ? (
              <p className="notice warn">This server does not report run progress. Watch the live view instead.</p>
            ) : (
              <ErrorNotice error={status.error} title="Could not load the run's progress." />
            ))}
          {run && <RunSteps run={run} />}
        </section>
      </div>
      {run?.completed && <SessionInspector sessionId={sessionId} />}
    </>
  );
}
