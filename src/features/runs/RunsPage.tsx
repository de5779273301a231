import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useRuns, type RunsFilter } from '../../api/runs/get-runs.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { formatDuration } from '../../lib/format.ts';

const OUTCOME: Record<string, string> = { queued: 'Queued', running: 'Running', succeeded: 'Succeeded', failed: 'Failed' };

/** Every run, newest first, filterable by outcome; each opens its page (live progress, or the inspector once ended). */
export function RunsPage() {
  const id = useId();
  const [status, setStatus] = useState<RunsFilter['status']>();
  const [cursors, setCursors] = useState<string[]>([]);
  const runs = useRuns({ status, cursor: cursors.at(-1) });
  const choose = (value: string) => {
    setStatus(value ? (value as RunsFilter['status']) : undefined);
    setCursors([]);
  };

  return (
    <>
      <div className="row spread">
        <h1>Runs</h1>
        <Link to="/run" className="button">
          Run a workflow
        </Link>
      </div>
      <section className="card" aria-labelledby={`${id}-title`}>
        <div className="row spread">
          <h2 id={`${id}-title`}>Every run, newest first</h2>
          <div className="row">
            <label htmlFor={`${id}-status`}>Outcome</label>
            <select id={`${id}-status`} value={status ?? ''} onChange={(e) => choose(e.target.value)} style={{ width: 'auto' }}>
              <option value="">All</option>
              <option value="queued">Queued</option>
              <option value="running">Running</option>
              <option value="succeeded">Succeeded</option>
              <option value="failed">Failed</option>
            </select>
          </div>
        </div>
        {runs.isPending && <p className="status" role="status">Loading runs…</p>}
        {runs.isError && <ErrorNotice error={runs.error} title="Could not load the runs." />}
        {runs.data?.items.length === 0 && <p className="status">{status ? 'No runs with this outcome.' : 'No runs yet. Run a workflow to see it here.'}</p>}
        {runs.data && runs.data.items.length > 0 && (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Runs, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Workflow</th>
                  <th scope="col" className="hide-narrow">Started</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {runs.data.items.map((r) => (
                  <tr key={r.session_id} data-session-id={r.session_id}>
                    <td className="wrap-anywhere">
                      <Link to={`/runs/${r.session_id}`}>{r.workflow_name ?? 'Deleted workflow'}</Link>
                    </td>
                    <td className="hide-narrow">
                      <time dateTime={r.created_at}>{new Date(r.created_at).toLocaleString()}</time>
                    </td>
                    <td>{r.duration_ms === null ? '—' : formatDuration(r.duration_ms)}</td>
                    <td>
                      <span className={`badge ${r.status}`} title={r.message}>
                        {OUTCOME[r.status]}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div className="row">
          {cursors.length > 0 && (
            <button type="button" className="secondary small" onClick={() => setCursors((c) => c.slice(0, -1))}>
              Newer
            </button>
          )}
          {runs.data?.next_cursor && (
            <button type="button" className="secondary small" onClick={() => setCursors((c) => [...c, runs.data!.next_cursor!])}>
              Older
            </button>
          )}
        </div>
      </section>
    </>
  );
}
