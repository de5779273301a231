import { Link } from 'react-router';
import type { Profile } from '../../../contract/profiles.ts';

/** The live sessions started from a profile, each a link to its page; those saving back say so. */
export function InUseBy({ users }: { users: Profile['in_use_by'] }) {
  if (users.length === 0) return <span className="status">No session</span>;
  return (
    <ul className="plain-list">
      {users.map((u) => (
        <li key={u.session_id}>
          <Link to={`/sessions/${u.session_id}`}>
            Session <code>{u.session_id.slice(0, 8)}</code>
          </Link>
          {u.persist && <span className="status"> (saves back)</span>}
        </li>
      ))}
    </ul>
  );
}
