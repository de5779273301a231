import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { isStatus } from '../../api/errors.ts';
import { useEndSession } from '../../api/sessions/end-session.ts';
import { useSessionViews } from '../../api/sessions/create-session-views.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { LiveSessionLog } from '../../components/inspector/LiveSessionLog.tsx';
import { SessionInspector } from '../../components/inspector/SessionInspector.tsx';
import { ConnectPanel } from './ConnectPanel.tsx';
import { EmbedPanel } from './EmbedPanel.tsx';
import { LiveViewPanel } from '../../components/LiveViewPanel.tsx';
import { ProfileNote } from './ProfileNote.tsx';
import { RecordPanel } from './RecordPanel.tsx';
import { recallSession } from '../../lib/session-memory.ts';
import { isolationOf } from '../../lib/isolation.ts';
import { IsolationBadge } from './IsolationBadge.tsx';
import { SessionBadge } from './SessionBadge.tsx';
import { SessionRun } from './SessionRun.tsx';
import { TimeLeft, TimeLimit, TimeWarning } from './TimeLeft.tsx';
import { useShownSession } from './use-shown-session.ts';

export function SessionPage() {
  const { id = '' } = useParams();
  const [confirming, setConfirming] = useState(false);
  // A session's page starts at its top, wherever the list was scrolled to. A block, not an arrow's
  // value: Chromium's scrollTo now answers a promise, which React took for the effect's cleanup
  // and called when the page unmounted ("destroy is not a function": leaving a session page
  // for another page of the dashboard showed 'This page could not be shown').
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [id]);
  // Nothing live is painted (End session, addresses, time left) until the state is read: a cached
  // "live" may be a session that ended since.
  const { session, state: read, run, live, unknown } = useShownSession(id);
  const runOutcome = run?.completed && (run.status === 'succeeded' || run.status === 'failed') ? run.status : undefined;
  const end = useEndSession();
  const remembered = recallSession(id);
  // A server that does not report sessions (only the spec's operations) answers 404: this tab's
  // launch is then all there is to go on.
  const state = unknown && remembered ? 'live' : read;
  const ended = state === 'ended';
  const running = state === 'live' || state === 'starting';
  const expiresAt =
    session.data?.expires_at ??
    (remembered
      ? new Date(new Date(remembered.created_at).getTime() + remembered.timeout * 1000).toISOString()
      : undefined);
  // 404, or 422 for an address whose id is not a session id at all: either way, no such session.
  const unknownHere = unknown && !remembered;
  // Not launched from this tab: ask the server for fresh URLs (the launch's tokens are kept hashed).
  const views = useSessionViews(id, !remembered && state === 'live');
  const urls = state === 'live' ? (remembered ?? views.data) : undefined;
  // While it runs: what happens in it, as it happens, under the live view.
  const liveLog = running && !unknown ? <LiveSessionLog sessionId={id} live={live} /> : null;

  return (
    <div className="live-page">
      <div className="live-head">
        <p className="back">
          <Link to="/sessions">← Sessions</Link>
        </p>
        <h1>
          Session <code>{id.slice(0, 8)}</code>
        </h1>
      </div>
      <ul className="stats live-facts">
        {session.data && state !== 'loading' && (
          <li>
            State: <SessionBadge session={{ ...session.data, state }} runOutcome={runOutcome} />
          </li>
        )}
        {session.data && state !== 'loading' && (
          <li>
            Isolation: <IsolationBadge session={session.data} />
          </li>
        )}
        {(session.data?.workflow_name ?? remembered?.workflow_name) && (
          <li className="live-fact-name" title={session.data?.workflow_name ?? remembered?.workflow_name}>
            Workflow: <strong>{session.data?.workflow_name ?? remembered?.workflow_name}</strong>
          </li>
        )}
        {running && expiresAt && (
          <li>
            Time left:{' '}
            {session.data?.state === 'live' ? (
              <TimeLimit session={session.data} />
            ) : (
              <strong>
                <TimeLeft expiresAt={expiresAt} />
              </strong>
            )}
          </li>
        )}
      </ul>
      {running && (
        <div className="live-actions">
          <button type="button" className="danger" disabled={end.isPending} onClick={() => setConfirming(true)}>
            {end.isPending ? 'Ending…' : 'End session'}
          </button>
        </div>
      )}
      {state === 'live' && session.data && <TimeWarning session={session.data} />}
      {running && <ProfileNote profile={remembered?.profile} />}
      {state === 'loading' && !session.isError && (
        <p className="status" role="status">
          Loading the session…
        </p>
      )}
      {run && <SessionRun run={run} workflowName={session.data?.workflow_name} />}
      {unknownHere && (
        <div className="notice error" role="alert">
          <p>
            <strong>No such session.</strong>
          </p>
          <p>
            This server has no session with the id <code>{id}</code>. Find it under <Link to="/sessions">Sessions</Link>
            .
          </p>
        </div>
      )}
      {session.isError && !isStatus(session.error, 404) && !isStatus(session.error, 422) && (
        <ErrorNotice error={session.error} title="Could not load the session's state." />
      )}
      {end.isError && <ErrorNotice error={end.error} title="The session was not ended." />}
      <ConfirmDialog
        open={confirming}
        title="End this session?"
        confirmLabel="End session"
        busy={end.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => end.mutate(id, { onSettled: () => setConfirming(false) })}
      >
        <p>Its browser closes and its live view, connect address and any run in it stop. What it recorded stays.</p>
      </ConfirmDialog>
      {ended ? (
        <>
          <p className="notice" role="status">
            This session has ended
            {session.data?.end_reason === 'completed' && runOutcome
              ? ` (its run ${runOutcome})`
              : session.data?.end_reason
                ? ` (${session.data.end_reason.replace(/_/g, ' ')})`
                : ''}
            . Its browser and addresses are gone; what it left is below.
          </p>
          <div className="live-after">
            <SessionInspector sessionId={id} />
          </div>
        </>
      ) : urls ? (
        <>
          {(urls.vnc_url || urls.livestream_url) && (
            <LiveViewPanel
              vncUrl={urls.vnc_url}
              livestreamUrl={urls.livestream_url}
              clients={session.data?.clients}
              isolation={isolationOf(session.data)}
            />
          )}
          <div className="live-after">
            <RecordPanel sessionId={id} />
            {liveLog}
            {urls.connect_url && <ConnectPanel connectUrl={urls.connect_url} sessionId={id} />}
            {(urls.vnc_url || urls.livestream_url) && (
              <EmbedPanel vncUrl={urls.vnc_url} livestreamUrl={urls.livestream_url} />
            )}
          </div>
        </>
      ) : views.isError ? (
        <ErrorNotice error={views.error} title="Could not open the live view." />
      ) : (
        state === 'live' && (
          <p className="status" role="status">
            Opening the live view…
          </p>
        )
      )}
      {!urls && liveLog}
    </div>
  );
}
