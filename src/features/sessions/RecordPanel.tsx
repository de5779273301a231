import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useRecorder, useRecorderControl } from '../../api/recorder/recorder.ts';
import { useSaveWorkflow } from '../../api/workflows/save-workflow.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { describeStep } from '../../components/steps/describe-step.ts';
import { WithPlaceholders } from '../../components/steps/WithPlaceholders.tsx';
import { lastKept, recordedWorkflow } from './recorded-flow.ts';

/**
 * Record on a live session's page: what the person does in the live view above becomes steps,
 * shown in words as they come; Undo takes the last one out, Stop and save makes them a new
 * workflow, the password placeholders named as the person says.
 */
export function RecordPanel({ sessionId }: { sessionId: string }) {
  const [started, setStarted] = useState(false);
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set());
  const [name, setName] = useState('Recorded workflow');
  const [names, setNames] = useState<Record<string, string>>({});
  const recorder = useRecorder(sessionId, started);
  const control = useRecorderControl(sessionId);
  const save = useSaveWorkflow();
  const navigate = useNavigate();
  const state = recorder.data ?? control.start.data;
  const recording = Boolean(state?.recording);
  const steps = state?.flow.steps ?? [];
  const undoable = lastKept(steps.length, removed);

  const start = () =>
    control.start.mutate(undefined, {
      onSuccess: () => {
        setRemoved(new Set());
        setStarted(true);
      },
    });
  const stopAndSave = async () => {
    const stopped = await control.stop.mutateAsync();
    const saved = await save.mutateAsync({ input: recordedWorkflow(stopped, { name, removed, names }) });
    void navigate(`/workflows/${saved.id}`);
  };

  return (
    <section className="card" aria-labelledby="record-title">
      <div className="row spread">
        <h2 id="record-title">Record a workflow</h2>
        {!recording && (
          <button type="button" onClick={start} disabled={control.start.isPending}>
            Record
          </button>
        )}
      </div>
      {!state && (
        <p className="hint">
          Record, then do the task in the live view: each click, field typed, choice and key becomes a step that replays
          without a model. Passwords are never recorded: they become placeholders.
        </p>
      )}
      {control.start.isError && <ErrorNotice error={control.start.error} title="Could not start the recorder." />}
      {state && (
        <>
          <ol className="steps" aria-label="Recorded steps" aria-live="polite" aria-relevant="additions">
            {steps.map((step, i) =>
              removed.has(i) ? null : (
                <li key={i}>
                  <WithPlaceholders text={describeStep(step, i).words} />
                </li>
              ),
            )}
          </ol>
          {state.warnings.map((w) => (
            <p key={w} className="notice">
              {w}
            </p>
          ))}
          {recording && (
            <form
              className="stack"
              onSubmit={(e) => {
                e.preventDefault();
                void stopAndSave();
              }}
            >
              <label>
                Workflow name <input value={name} onChange={(e) => setName(e.target.value)} required />
              </label>
              {state.variables.map((v) => (
                <label key={v.name}>
                  Placeholder for {`{{${v.name}}}`}{' '}
                  <input
                    value={names[v.name] ?? v.name}
                    pattern="[A-Za-z_][A-Za-z0-9_]*"
                    onChange={(e) => setNames({ ...names, [v.name]: e.target.value })}
                  />
                </label>
              ))}
              <div className="row">
                <button
                  type="button"
                  className="secondary"
                  disabled={undoable === undefined}
                  onClick={() => undoable !== undefined && setRemoved(new Set([...removed, undoable]))}
                >
                  Undo last step
                </button>
                <button type="submit" disabled={control.stop.isPending || save.isPending}>
                  Stop and save
                </button>
              </div>
            </form>
          )}
          {(control.stop.isError || save.isError) && (
            <ErrorNotice error={control.stop.error ?? save.error} title="Could not save the recording." />
          )}
        </>
      )}
    </section>
  );
}
