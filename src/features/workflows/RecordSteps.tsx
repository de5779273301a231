import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CreateWorkflowSessionResponse } from '../../../contract/sessions.ts';
import { SESSION_TIMEOUT_DEFAULT } from '../../../contract/sessions.ts';
import type { Step } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';
import { recorderKey, startRecorder } from '../../api/recorder/recorder.ts';
import { endSession } from '../../api/sessions/end-session.ts';
import { useCreateSession } from '../../api/sessions/create-session.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { stepsOf } from '../../components/steps/describe-step.ts';
import { rememberSession } from '../../lib/session-memory.ts';
import { parseFlowText } from './flow-text.ts';
import type { RecordPlan } from './record-insert.ts';

// The live view and the recording's panel load only when the person records.
const RecordingSession = lazy(() => import('./RecordingSession.tsx'));

/**
 * Record steps into this workflow: a live browser opens here (a session of this workflow), what the
 * person does in it becomes steps, and Stop and save puts them after the step they chose (at the
 * end unless they chose one). `onSave` gets them with where they go; the editor inserts and saves.
 * A workflow not saved yet has "Save and record": the editor saves it (`onSaveFirst`), and its
 * own page starts recording at once (`autoStart`) with the start page and place chosen here.
 */
export function RecordSteps({
  workflowName,
  flowText,
  declared = [],
  onSave,
  onSaveFirst,
  saving = false,
  autoStart,
  onAutoStarted,
}: {
  /** The workflow's saved name: the session opens on it (a new name would make a new workflow). */
  workflowName: string | undefined;
  flowText: string;
  /** The names of the variables the editor declares now. */
  declared?: readonly string[];
  onSave: (steps: Step[], variables: Variable[], after: number | undefined) => void;
  /** Not saved yet: save the workflow, then record on its page as `plan` says. */
  onSaveFirst: (plan: RecordPlan) => void;
  /** The editor is saving (Save and record waits for it). */
  saving?: boolean;
  /** Start recording as soon as this shows, as planned before the workflow was saved. */
  autoStart?: RecordPlan;
  /** Told once the planned recording starts (the plan is then forgotten, so a reload does not start another). */
  onAutoStarted?: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const create = useCreateSession();
  const parsed = useMemo(() => stepsOf(parseFlowText(flowText).value), [flowText]);
  const steps = parsed ?? [];
  const [after, setAfter] = useState<string>(autoStart?.after ?? 'end');
  const [startUrl, setStartUrl] = useState(autoStart?.startUrl ?? '');
  const [session, setSession] = useState<CreateWorkflowSessionResponse | null>(null);
  const [startError, setStartError] = useState<unknown>(null);
  const [opening, setOpening] = useState(false);
  // When the recording closes, the keyboard comes back to Record (its panel, and the focus in it, are gone).
  const recordButton = useRef<HTMLButtonElement>(null);
  const [closed, setClosed] = useState(false);
  useEffect(() => {
    if (closed && !session) recordButton.current?.focus();
  }, [closed, session]);
  const afterStep = after === 'end' || Number(after) >= steps.length ? undefined : Number(after);

  const record = async (name: string, start: string) => {
    setStartError(null);
    setOpening(true);
    try {
      const body = { workflow_name: name, ...(start.trim() ? { start_url: start.trim() } : {}) };
      const created = await create.mutateAsync(body);
      rememberSession({
        ...created,
        workflow_name: name,
        created_at: new Date().toISOString(),
        timeout: SESSION_TIMEOUT_DEFAULT,
      });
      try {
        queryClient.setQueryData(recorderKey(created.session_id), await startRecorder(created.session_id));
      } catch (err) {
        await endSession(created.session_id).catch(() => undefined);
        throw err;
      }
      setSession(created);
    } catch (err) {
      setStartError(err);
    } finally {
      setOpening(false);
    }
  };

  // Saved just now by Save and record: the recording starts once, as planned.
  const autoStarted = useRef(false);
  useEffect(() => {
    if (!autoStart || !workflowName || autoStarted.current) return;
    autoStarted.current = true;
    onAutoStarted?.();
    void record(workflowName, autoStart.startUrl);
    // Once, on the plan it was shown with: later renders bring nothing new to start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoStart, workflowName]);

  const placeChoice = (
    <label>
      Put the recorded steps{' '}
      <select value={afterStep === undefined ? 'end' : String(afterStep)} onChange={(e) => setAfter(e.target.value)}>
        <option value="end">at the end{steps.length ? ` (after step ${steps.length})` : ''}</option>
        {steps.slice(0, -1).map((s) => (
          <option key={s.index} value={String(s.index)}>
            after step {s.index + 1}: {s.words.length > 60 ? `${s.words.slice(0, 59)}…` : s.words}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Record steps</h2>
      {session ? (
        <Suspense
          fallback={
            <p className="status" role="status">
              Loading the recorder…
            </p>
          }
        >
          <RecordingSession
            session={session}
            startsFlow={steps.length === 0}
            blocked={
              parsed === null
                ? 'The flow below is not valid JSON with a "steps" list: fix it, and the recorded steps can go into it.'
                : undefined
            }
            placeChoice={placeChoice}
            declared={declared}
            onSaved={(recorded, variables) => onSave(recorded, variables, afterStep)}
            onClosed={() => {
              setSession(null);
              setClosed(true);
            }}
          />
        </Suspense>
      ) : (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (workflowName) void record(workflowName, startUrl);
            else onSaveFirst({ startUrl: startUrl.trim(), after });
          }}
        >
          <p className="hint">
            Do the steps yourself: a live browser opens here, and each click, field typed, choice and key you make in it
            becomes a step that replays without a model.
            {!workflowName &&
              ' This workflow is not saved yet: Save and record saves it as it is below (it needs a name), then the browser opens.'}
          </p>
          {placeChoice}
          <label>
            Start page (optional){' '}
            <input
              type="url"
              value={startUrl}
              placeholder="https://example.com/"
              onChange={(e) => setStartUrl(e.target.value)}
            />
          </label>
          {startError !== null && <ErrorNotice error={startError} title="Could not open a browser to record in." />}
          <div className="row">
            <button ref={recordButton} type="submit" disabled={opening || saving}>
              {opening ? 'Opening a browser…' : saving ? 'Saving…' : workflowName ? 'Record' : 'Save and record'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
