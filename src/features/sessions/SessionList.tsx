import { Link, useSearchParams } from 'react-router';
import { isStatus } from '../../api/errors.ts';
import { useSessions } from '../../api/sessions/get-sessions.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SessionBadge } from './SessionBadge.tsx';
import { emptyListText, readStateFilter, STATE_FILTER_OPTIONS } from './session-filter.ts';
import { TimeLeft } from './TimeLeft.tsx';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
const When = ({ iso }: { iso: string }) => (
  <time dateTime={iso} title={new Date(iso).toLocaleString()}>
    {dateTime.format(new Date(iso))}
  </time>
);

/** All sessions (or those of one state) with their workflow, start and end, refreshed every two seconds. */
export function SessionList() {
  const [params, setParams] = useSearchParams();
  const state = readStateFilter(params);
  const sessions = useSessions({ state });
  const choose = (value: string) =>
    setParams(
      (p) => {
        if (value) p.set('state', value);
        else p.delete('state');
        return p;
      },
      { replace: true },
    );

  return (
    <section className="card" aria-labelledby="sessions-title">
      <div className="row spread">
        <h2 id="sessions-title">Sessions</h2>
        <div className="row">
          <label htmlFor="sessions-state">Show</label>
          <select id="sessions-state" value={state ?? ''} onChange={(e) => choose(e.target.value)} style={{ width: 'auto' }}>
            {STATE_FILTER_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {sessions.isPending && <p className="status" role="status">Loading sessions…</p>}
      {sessions.isError &&
        (isStatus(sessions.error, 404) ? (
          <p className="status">This server does not list sessions; a session you launch here still opens on its own page.</p>
        ) : (
          <ErrorNotice error={sessions.error} title="Could not load the sessions." />
        ))}
      {sessions.data?.items.length === 0 && <p className="status">{emptyListText(state)}</p>}
      {sessions.data && sessions.data.items.length > 0 && (
        <div className="table-wrap stack-narrow-wrap">
          <table className="stack-narrow">
            <caption className="visually-hidden">Sessions, newest first{state ? `, ${state} only` : ''} (updates by itself)</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Workflow</th>
                <th scope="col">State</th>
                <th scope="col">Started</th>
                <th scope="col">Ended or time left</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.items.map((s) => (
                <tr key={s.id} data-session-id={s.id}>
                  <td data-label="Session">
                    <Link to={`/sessions/${s.id}`}>
                      <code>{s.id.slice(0, 8)}</code>
                      <span className="visually-hidden"> session {s.id}</span>
                    </Link>
                  </td>
                  <td data-label="Workflow">
                    {s.workflow_name === null ? (
                      <span className="status">deleted</span>
                    ) : (
                      // A 200-character name is cut with the whole of it on hover.
                      <span className="truncate" title={s.workflow_name}>
                        {s.workflow_name}
                      </span>
                    )}
                  </td>
                  <td data-label="State">
                    <SessionBadge session={s} />
                  </td>
                  <td data-label="Started">
                    <When iso={s.created_at} />
                  </td>
                  <td data-label={s.state === 'ended' ? 'Ended' : 'Time left'}>
                    {s.state === 'ended' ? s.ended_at ? <When iso={s.ended_at} /> : '—' : <TimeLeft expiresAt={s.expires_at} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
