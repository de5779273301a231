import type { WriteRecord } from '../../../contract/write.ts';
import { isStatus } from '../../api/errors.ts';
import { useWrites } from '../../api/writes/get-writes.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';

/** Earlier writes, newest first (GET /writes; absent on servers with only the spec's operations). */
export function WriteHistory({ onOpen }: { onOpen(record: WriteRecord): void }) {
  const writes = useWrites();
  return (
    <section aria-labelledby="history-title" className="card">
      <h2 id="history-title">History</h2>
      {writes.isPending && <p className="status">Loading earlier writes…</p>}
      {writes.isError &&
        (isStatus(writes.error, 404) ? (
          <p className="status">This server keeps no history of writes.</p>
        ) : (
          <ErrorNotice error={writes.error} title="Could not load the history." />
        ))}
      {writes.data && writes.data.items.length === 0 && (
        <p className="status">No writes yet. Your first one will appear here.</p>
      )}
      {writes.data && writes.data.items.length > 0 && (
        <ul className="steps">
          {writes.data.items.map((w) => (
            <li key={w.id} className="row spread">
              <span>
                <strong>{w.prompt.slice(0, 80) || '(empty prompt)'}</strong>
                {w.prompt.length > 80 ? '…' : ''}
                <br />
                <span className="hint">
                  {new Date(w.created_at).toLocaleString()} · {w.word_count} words{w.error ? ' · cut off' : ''}
                </span>
              </span>
              <button type="button" className="secondary small" onClick={() => onOpen(w)}>
                Show
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
