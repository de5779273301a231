import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { CreateWorkflowSessionResponse } from '../../../contract/sessions.ts';
import type { Step } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';
import { isStatus } from '../../api/errors.ts';
import { useEndSession } from '../../api/sessions/end-session.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { LiveViewPanel } from '../../components/LiveViewPanel.tsx';
import { isolationOf } from '../../lib/isolation.ts';
import { RecordingView } from '../../components/recorder/RecordingView.tsx';
import { useRecording } from '../../components/recorder/use-recording.ts';
import { openingSteps } from './record-insert.ts';

/**
 * The editor's recording (loaded only once the person records): the session's live browser in
 * control mode beside the steps as they come. Stop and save hands the kept steps to the editor,
 * which puts them where the person chose, and ends the session it opened for this.
 * `placeChoice`: the editor's "where the steps go", asked with the save.
 */
export default function RecordingSession({
  session,
  startsFlow,
  blocked,
  placeChoice,
  declared,
  onSaved,
  onClosed,
}: {
  session: CreateWorkflowSessionResponse;
  /** The steps go at the flow's start (it has none yet): keep the window size and start page then. */
  startsFlow: boolean;
  /** Why the steps cannot go into the flow now (its JSON does not parse). */
  blocked?: string;
  placeChoice: ReactNode;
  /** The workflow's variables as declared now (a typed value's suggested name avoids them). */
  declared: readonly string[];
  onSaved: (steps: Step[], variables: Variable[]) => void;
  onClosed: () => void;
}) {
  const recording = useRecording(session.session_id, true);
  const end = useEndSession();
  const [keepOpening, setKeepOpening] = useState(startsFlow);
  const opening = openingSteps(recording.steps);
  // Record's button is gone: the keyboard goes to the recording's heading, from where Tab reaches the live view.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const stopAndSave = async () => {
    const { steps, variables } = await recording.stop(keepOpening ? [] : opening);
    onSaved(steps, variables);
    // The browser was opened for this recording: it goes with it (what it logged stays).
    await end.mutateAsync(session.session_id).catch(() => undefined);
    onClosed();
  };
  const discard = async () => {
    try {
      await end.mutateAsync(session.session_id);
    } catch (err) {
      // Already ended (timed out, or ended elsewhere): nothing is left to close.
      if (!isStatus(err, 404) && !isStatus(err, 409)) throw err;
    }
    onClosed();
  };

  return (
    <div className="record-grid">
      <div className="record-view">
        {session.vnc_url || session.livestream_url ? (
          <LiveViewPanel
            vncUrl={session.vnc_url}
            livestreamUrl={session.livestream_url}
            isolation={isolationOf(session)}
          />
        ) : (
          <p className="notice">This server gives no live view: record through the session&apos;s connect URL.</p>
        )}
      </div>
      <div className="record-side">
        <h3 ref={heading} tabIndex={-1}>
          Recording
        </h3>
        <p className="hint">
          Do the task in the live browser: each click, field typed, choice and key becomes a step below. Passwords are
          never recorded: they become placeholders you name on saving. The browser is{' '}
          <Link to={`/sessions/${session.session_id}`}>session {session.session_id.slice(0, 8)}</Link>.
        </p>
        <RecordingView
          recording={recording}
          onSave={() => void stopAndSave().catch(() => undefined)}
          saving={end.isPending}
          saveError={null}
          blocked={blocked}
          declared={declared}
        >
          {placeChoice}
          {opening.length > 0 && (
            <label className="check">
              <input type="checkbox" checked={keepOpening} onChange={(e) => setKeepOpening(e.target.checked)} /> Keep
              the start steps (window size and first page)
            </label>
          )}
        </RecordingView>
        {!recording.recording && !recording.control.stop.isPending && recording.state && (
          <p className="notice" role="status">
            The recorder stopped (the session ended?).
          </p>
        )}
        <button
          type="button"
          className="secondary"
          disabled={end.isPending}
          onClick={() => void discard().catch(() => undefined)}
        >
          Discard and close the browser
        </button>
        {end.isError && <ErrorNotice error={end.error} title="The browser was not closed." />}
      </div>
    </div>
  );
}
