import { Link } from 'react-router';
import { isStatus } from '../../api/errors.ts';
import { useSessions } from '../../api/sessions/get-sessions.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { SessionBadge } from './SessionBadge.tsx';
import { TimeLeft } from './TimeLeft.tsx';

/** All sessions with their states, refreshed every two seconds. */
export function SessionList() {
  const sessions = useSessions();
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      {sessions.isPending && <p className="status" role="status">Loading sessions…</p>}
      {sessions.isError &&
        (isStatus(sessions.error, 404) ? (
          <p className="status">This server does not list sessions; a session you launch here still opens on its own page.</p>
        ) : (
          <ErrorNotice error={sessions.error} title="Could not load the sessions." />
        ))}
      {sessions.data?.items.length === 0 && <p className="status">No sessions yet. Launch one with the form.</p>}
      {sessions.data && sessions.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Sessions, newest first (updates by itself)</caption>
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">State</th>
                <th scope="col" className="hide-narrow">Started</th>
                <th scope="col">Time left</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.items.map((s) => (
                <tr key={s.id} data-session-id={s.id}>
                  <td>
                    <Link to={`/sessions/${s.id}`}>
                      <code>{s.id.slice(0, 8)}</code>
                      <span className="visually-hidden"> session {s.id}</span>
                    </Link>
                  </td>
                  <td>
                    <SessionBadge session={s} />
                  </td>
                  <td className="hide-narrow">{new Date(s.created_at).toLocaleString()}</td>
                  <td>{s.state === 'ended' ? '—' : <TimeLeft expiresAt={s.expires_at} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
