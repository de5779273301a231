import type { SessionIsolation } from '../../../contract/isolation.ts';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import { useResumeRun } from '../../api/runs/resume-run.ts';
import { useSessionViews } from '../../api/sessions/create-session-views.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SessionScreen } from '../../components/SessionScreen.tsx';
import { LEAVE_KEYS_LABEL } from '../../viewer/leaveChord.ts';

type Pause = NonNullable<RunStatusResponse['pause']>;

/**
 * A run waiting for a person: what it asks, the browser to act in (interactive), and Resume. The
 * session's timeout keeps counting meanwhile, so the page says so.
 */
export function PausedRun({
  sessionId,
  pause,
  vncUrl: launched,
  isolation,
}: {
  sessionId: string;
  pause: Pause;
  vncUrl?: string;
  /** Which view its vnc_url needs (SessionScreen); undefined while the session is read. */
  isolation: SessionIsolation | undefined;
}) {
  const resume = useResumeRun(sessionId);
  // A run started elsewhere (the API, another tab): fresh URLs for its live view.
  const views = useSessionViews(sessionId, !launched);
  const vncUrl = launched ?? views.data?.vnc_url;
  const ask = pause.message ?? 'The run was paused through the API.';
  return (
    <section className="card paused-run" aria-labelledby="paused-title">
      <h2 id="paused-title">Waiting for you: {ask}</h2>
      <p className="hint">
        {vncUrl
          ? `Act in the browser below, then resume: Tab to it (or click it) to type there; ${LEAVE_KEYS_LABEL} gives the keyboard back.`
          : 'Opening the live view…'}{' '}
        The session’s time limit keeps counting while the run waits.
      </p>
      {vncUrl && (
        <SessionScreen
          isolation={isolation}
          url={vncUrl}
          scale="fit"
          className="viewer-frame"
          label="Live browser (interactive): act here, then resume"
        />
      )}
      <div className="row" style={{ marginTop: '0.75rem' }}>
        <button type="button" onClick={() => resume.mutate()} disabled={resume.isPending}>
          {resume.isPending ? 'Resuming…' : 'Resume the run'}
        </button>
      </div>
      {views.isError && <ErrorNotice error={views.error} title="Could not open the live view." />}
      {resume.isError && <ErrorNotice error={resume.error} title="Could not resume the run." />}
    </section>
  );
}
