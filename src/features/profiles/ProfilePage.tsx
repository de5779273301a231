import { Link, useParams } from 'react-router';
import { isStatus } from '../../api/errors.ts';
import { useProfile } from '../../api/profiles/get-profile.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';
import { formatBytes } from '../../lib/format.ts';
import { DeleteProfile } from './DeleteProfile.tsx';
import { InUseBy } from './InUseBy.tsx';
import { LogInByHand } from './LogInByHand.tsx';
import { ProfileVersions } from './ProfileVersions.tsx';
import { versionText } from './profile-text.ts';
import './profiles.css';

/** /profiles/:name: one profile's facts, the sessions using it, logging in by hand, its versions, deleting it. */
export function ProfilePage() {
  const { name = '' } = useParams();
  const profile = useProfile(name);
  const p = profile.data;
  return (
    <div className="profile-page">
      <p>
        <Link to="/profiles">← Profiles</Link>
      </p>
      <div className="row spread">
        <h1>
          Profile <code>{name}</code>
        </h1>
        {p && <DeleteProfile profile={p} />}
      </div>
      {profile.isPending && (
        <p className="status" role="status">
          Loading the profile…
        </p>
      )}
      {profile.isError &&
        (isStatus(profile.error, 404) || isStatus(profile.error, 422) ? (
          <div className="notice error" role="alert">
            <p>
              <strong>No such profile.</strong> This server has no profile named <code>{name}</code>; see{' '}
              <Link to="/profiles">Profiles</Link>.
            </p>
          </div>
        ) : (
          <ErrorNotice error={profile.error} title="Could not load the profile." />
        ))}
      {p && (
        <>
          <ul className="stats">
            <li>
              Version: <strong>{versionText(p)}</strong>
            </li>
            <li>
              Size: <strong>{formatBytes(p.size)}</strong>
            </li>
            <li>
              Created:{' '}
              <strong>
                <When iso={p.created_at} />
              </strong>
            </li>
            <li>
              Last used: <strong>{p.last_used_at ? <When iso={p.last_used_at} /> : 'Never'}</strong>
            </li>
          </ul>
          <section className="card" aria-labelledby="profile-users-title">
            <h2 id="profile-users-title">In use by</h2>
            <InUseBy users={p.in_use_by} />
          </section>
          <LogInByHand profile={p.name} />
          <ProfileVersions profile={p} />
        </>
      )}
    </div>
  );
}
