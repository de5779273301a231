import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { endSession } from '../../api/sessions/end-session.ts';
import { sessionKeys } from '../../api/sessions/keys.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';

interface Outcome {
  ended: number;
  failed: { id: string; message: string }[];
}

/**
 * "End N sessions" for the sessions selected in the list: asks first, then ends them one after another
 * (DELETE /sessions/{id}, as End session on a session's page), showing how far it got and, at the end,
 * which ones could not be ended and why.
 */
export function BulkEnd({ ids, onDone, onClear }: { ids: string[]; onDone(): void; onClear(): void }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const n = ids.length;
  const plural = (k: number) => `${k} session${k === 1 ? '' : 's'}`;

  const run = async () => {
    const todo = [...ids];
    const result: Outcome = { ended: 0, failed: [] };
    setOutcome(null);
    setProgress({ done: 0, total: todo.length });
    for (const [i, id] of todo.entries()) {
      try {
        const session = await endSession(id);
        queryClient.setQueryData(sessionKeys.one(session.id), session);
        result.ended++;
      } catch (e) {
        result.failed.push({ id, message: e instanceof Error ? e.message : String(e) });
      }
      setProgress({ done: i + 1, total: todo.length });
    }
    await queryClient.invalidateQueries({ queryKey: sessionKeys.lists() });
    setProgress(null);
    setAsking(false);
    setOutcome(result);
    onDone();
  };

  return (
    <>
      {n > 0 && (
        <div className="row bulk-bar">
          <span>{plural(n)} selected</span>
          <button
            type="button"
            className="secondary small danger-quiet"
            onClick={() => setAsking(true)}
            disabled={progress !== null}
          >
            End {plural(n)}
          </button>
          <button type="button" className="secondary small" onClick={onClear}>
            Clear selection
          </button>
        </div>
      )}
      <div role="status" className="bulk-status">
        {outcome && (
          <div className={`notice ${outcome.failed.length ? 'error' : 'ok'}`}>
            <p>
              {outcome.ended > 0 ? `Ended ${plural(outcome.ended)}.` : 'No session was ended.'}
              {outcome.failed.length > 0 && ` ${plural(outcome.failed.length)} could not be ended:`}
            </p>
            {outcome.failed.length > 0 && (
              <ul>
                {outcome.failed.map((f) => (
                  <li key={f.id}>
                    <code>{f.id.slice(0, 8)}</code>: {f.message}
                  </li>
                ))}
              </ul>
            )}
            <button type="button" className="secondary small" onClick={() => setOutcome(null)}>
              Dismiss
            </button>
          </div>
        )}
      </div>
      <ConfirmDialog
        open={asking}
        title={`End ${plural(n)}?`}
        confirmLabel={`End ${plural(n)}`}
        busy={progress !== null}
        onConfirm={() => void run()}
        onCancel={() => {
          if (progress === null) setAsking(false);
        }}
      >
        <p>
          Each selected session stops now (reason: stopped): its browser closes and anyone watching or connected is cut
          off.
        </p>
        {progress && (
          <p role="status">
            Ending {Math.min(progress.done + 1, progress.total)} of {progress.total}…
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
