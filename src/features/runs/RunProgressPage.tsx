import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { isStatus } from '../../api/errors.ts';
import { useRunStatus } from '../../api/runs/get-run-status.ts';
import { useSessionViews } from '../../api/sessions/create-session-views.ts';
import { useSession } from '../../api/sessions/get-session.ts';
import { useSessionEventStream } from '../../api/sessions/stream-session-events.ts';
import { useWorkflow } from '../../api/workflows/get-workflow.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SessionScreen } from '../../components/SessionScreen.tsx';
import { isolationWhenRead } from '../../lib/isolation.ts';
import { preloadVncViewer } from '../../viewer/preload.ts';
import { recallRun } from '../../components/run/run-memory.ts';
import { LiveSessionLog } from '../../components/inspector/LiveSessionLog.tsx';
import { SessionInspector } from '../../components/inspector/SessionInspector.tsx';
import { failedStep } from '../../components/steps/StepFailure.tsx';
import { PausedRun } from './PausedRun.tsx';
import { RunSteps } from './RunSteps.tsx';

export function RunProgressPage() {
  const { sessionId = '' } = useParams();
  const status = useRunStatus(sessionId);
  const remembered = recallRun(sessionId);
  const run = status.data;
  const live = !run?.completed;
  // Everything the page shows comes from the server, so a run started through the API or an SDK,
  // opened from Runs, in a new tab or after a reload is watched like one started here. The tab's
  // memory only saves minting a second set of view tokens for a run this tab launched.
  const session = useSession(sessionId);
  // The workflow's steps list what is still to come (and its name, if the session has none).
  const workflow = useWorkflow(run?.workflow_id);
  const workflowName = session.data?.workflow_name ?? remembered?.workflowName ?? workflow.data?.name;
  const sessionLive = session.data?.state === 'live';
  const views = useSessionViews(sessionId, !remembered?.vncUrl && Boolean(run) && live && sessionLive);
  const vncUrl = remembered?.vncUrl ?? views.data?.vnc_url;
  const unknown = isStatus(status.error, 404) || isStatus(status.error, 422);
  // Its session's events while it goes on: how its start goes, then the live log (as on the session page).
  const events = useSessionEventStream(sessionId, Boolean(run) && live);
  const failedAt = run && failedStep(run);
  // A run under way will be watched: the viewer's code loads beside the view tokens' request, not after it.
  const underWay = Boolean(run) && live;
  useEffect(() => {
    if (underWay) preloadVncViewer();
  }, [underWay]);

  return (
    <div className="live-page">
      <div className="live-head">
        <p className="back">
          <Link to="/runs">← Runs</Link> · <Link to="/run">Run another</Link>
        </p>
        <h1>Run{workflowName ? `: ${workflowName}` : ''}</h1>
      </div>
      <p className="live-facts">
        Session{' '}
        <Link to={`/sessions/${encodeURIComponent(sessionId)}`}>
          <code>{sessionId}</code>
        </Link>
        {run && (
          <>
            {' '}
            · workflow <Link to={`/workflows/${encodeURIComponent(run.workflow_id)}`}>{workflowName ?? 'open'}</Link>
          </>
        )}
      </p>
      {unknown && (
        <p className="notice warn" role="alert">
          There is no run with this id on this server. It may have been started on another server, or the link is
          incomplete: find it under <Link to="/runs">Runs</Link>.
        </p>
      )}
      {run?.pause && (
        <PausedRun sessionId={sessionId} pause={run.pause} vncUrl={vncUrl} isolation={isolationWhenRead(session)} />
      )}
      <div className="live-split">
        <section aria-labelledby="live-title">
          <h2 id="live-title" className="visually-hidden">
            Live view
          </h2>
          {run?.pause ? (
            <p className="status">The run is paused: the interactive view is above.</p>
          ) : vncUrl && live ? (
            <SessionScreen
              isolation={isolationWhenRead(session)}
              url={vncUrl}
              viewOnly
              scale="fit"
              className="viewer-frame above-fold"
              label="Live view of the run"
              // Until the picture arrives, the run's state as the server reported it over HTTP.
              connectingText={
                run && `Running, ${run.results.length} of ${run.total_actions} steps done: opening the live view…`
              }
            />
          ) : run?.screenshot ? (
            <figure style={{ margin: 0 }}>
              <img className="screenshot" src={run.screenshot} alt="The page when the run ended" />
              <figcaption className="hint">
                {failedAt ? `The page when step ${failedAt} failed.` : 'The final page.'}
              </figcaption>
            </figure>
          ) : views.isError ? (
            <ErrorNotice error={views.error} title="Could not open the live view." />
          ) : (
            <p className="status">
              {unknown
                ? 'No live view: there is no such run.'
                : !run
                  ? 'Loading the run…'
                  : !live
                    ? 'The run has ended.'
                    : run.status === 'queued'
                      ? 'Waiting for a browser: the live view opens when the run starts.'
                      : 'Opening the live view…'}
            </p>
          )}
        </section>
        <section aria-labelledby="steps-title">
          <h2 id="steps-title">Progress</h2>
          {status.isPending && (
            <p className="status" role="status">
              Loading the run…
            </p>
          )}
          {status.isError && !unknown && (
            <ErrorNotice error={status.error} title="Could not load the run's progress." />
          )}
          {run && (
            <RunSteps
              run={run}
              flowSteps={workflow.data?.flow.steps as Record<string, unknown>[] | undefined}
              events={events.events}
              screenshotShown={Boolean(run.screenshot)}
            />
          )}
        </section>
      </div>
      {run && (
        <div className="live-after">
          {run.completed ? (
            <SessionInspector sessionId={sessionId} />
          ) : (
            <LiveSessionLog sessionId={sessionId} live={events} />
          )}
        </div>
      )}
    </div>
  );
}
