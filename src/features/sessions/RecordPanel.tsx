import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSaveWorkflow } from '../../api/workflows/save-workflow.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { RecordingView } from '../../components/recorder/RecordingView.tsx';
import { useRecording } from '../../components/recorder/use-recording.ts';
import { recordedWorkflow } from './recorded-flow.ts';

/**
 * Record on a live session's page: what the person does in the live view above becomes steps,
 * shown in words as they come; Undo takes the last one out, Stop and save makes them a new
 * workflow, the password placeholders named (or made stored credentials) as the person says.
 */
export function RecordPanel({ sessionId }: { sessionId: string }) {
  const [name, setName] = useState('Recorded workflow');
  const recording = useRecording(sessionId);
  const save = useSaveWorkflow();
  const navigate = useNavigate();
  const { state, control } = recording;

  const stopAndSave = async () => {
    const { stopped } = await recording.stop();
    const input = recordedWorkflow(stopped, {
      name,
      removed: recording.removed,
      names: recording.names,
      typed: recording.typed,
    });
    const saved = await save.mutateAsync({ input });
    void navigate(`/workflows/${saved.id}`);
  };

  return (
    <section className="card" aria-labelledby="record-title">
      <div className="row spread">
        <h2 id="record-title">Record a workflow</h2>
        {!recording.recording && (
          <button type="button" onClick={recording.start} disabled={control.start.isPending}>
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
      <RecordingView
        recording={recording}
        onSave={() => void stopAndSave().catch(() => undefined)}
        saving={save.isPending}
        saveError={save.error}
      >
        <label>
          Workflow name <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
      </RecordingView>
    </section>
  );
}
