import { useState } from 'react';
import { Link } from 'react-router';
import { PROFILE_VERSIONS_KEPT, type Profile, type ProfileVersion } from '../../../contract/profiles.ts';
import { useRestoreProfile } from '../../api/profiles/restore-profile.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useConfirmedRemoval } from '../../components/useConfirmedRemoval.ts';
import { When } from '../../components/When.tsx';
import { formatBytes } from '../../lib/format.ts';

/** Where a version came from, in words (a session's links to its page). */
function Source({ version }: { version: ProfileVersion }) {
  if (version.source === 'import') return <>Imported</>;
  if (version.source === 'restore') return <>Restored from version {version.restored_from}</>;
  if (version.session_id === null) return <>Saved by a session</>;
  return (
    <>
      Saved by <Link to={`/sessions/${version.session_id}`}>session {version.session_id.slice(0, 8)}</Link>
    </>
  );
}

/**
 * The versions kept, newest first; any but the current one can be restored (copied as the newest),
 * after a confirmation that says which version the copy pushes out when all are in use.
 */
export function ProfileVersions({ profile }: { profile: Profile }) {
  const restore = useRestoreProfile();
  const [restored, setRestored] = useState<number | null>(null);
  const confirm = useConfirmedRemoval(
    restore,
    (v: ProfileVersion) => ({ name: profile.name, version: v.version }),
    (v) => setRestored(v.version),
  );
  const oldest = profile.versions.at(-1);
  const pushedOut = profile.versions.length >= PROFILE_VERSIONS_KEPT ? oldest : undefined;
  return (
    <section className="card" aria-labelledby="profile-versions-title">
      <h2 id="profile-versions-title">Versions</h2>
      <p className="hint">
        The last {PROFILE_VERSIONS_KEPT} are kept, newest first. Restoring copies a version as the newest, so sessions
        start from it again.
      </p>
      {restore.isError && <ErrorNotice error={restore.error} title="Not restored." />}
      {restored !== null && (
        <p className="notice ok" role="status">
          Restored version {restored}: it is now version {profile.version}.
        </p>
      )}
      {profile.versions.length === 0 ? (
        <p className="status">No version yet: log in by hand, or start a session that saves back to it.</p>
      ) : (
        <div className="table-wrap">
          <table className="profile-versions">
            <caption className="visually-hidden">Versions of {profile.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Source</th>
                <th scope="col" className="hide-narrow">
                  Size
                </th>
                <th scope="col">Saved</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {profile.versions.map((v) => (
                <tr key={v.version}>
                  <td>{v.version}</td>
                  <td>
                    <Source version={v} />
                  </td>
                  <td className="hide-narrow">{formatBytes(v.size)}</td>
                  <td>
                    <When iso={v.created_at} />
                  </td>
                  <td>
                    {v.version === profile.version ? (
                      <span className="status">Current</span>
                    ) : (
                      <button type="button" className="secondary small" onClick={() => confirm.ask(v)}>
                        Restore<span className="visually-hidden"> version {v.version}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog {...confirm.dialog} title="Restore this version?" confirmLabel="Restore">
        <p>
          Version {confirm.target?.version} of <strong>{profile.name}</strong> is copied as version{' '}
          {(profile.version ?? 0) + 1}, and sessions start from it.
          {pushedOut && ` Version ${pushedOut.version}, the oldest kept, is dropped.`}
        </p>
      </ConfirmDialog>
    </section>
  );
}
