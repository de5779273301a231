import { useState } from 'react';
import { Link } from 'react-router';
import { useProfiles } from '../../api/profiles/get-profiles.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { CreateProfileForm } from './CreateProfileForm.tsx';
import { ProfileList } from './ProfileList.tsx';
import { profileHref } from './profile-text.ts';
import './profiles.css';

/** /profiles: every saved login, and a form to make one (empty, or from a Playwright storage state). */
export function ProfilesPage() {
  const profiles = useProfiles();
  const [created, setCreated] = useState<string | null>(null);
  return (
    <div className="profile-page">
      <h1>Profiles</h1>
      <p className="lead">
        A profile is a saved browser state, such as a login, kept encrypted with its last versions. Sessions and runs
        start from it already logged in, and may save what changed back to it.
      </p>
      <section className="card list-card" aria-labelledby="profiles-title">
        <h2 id="profiles-title">Every profile</h2>
        {profiles.isPending && (
          <p className="status" role="status">
            Loading profiles…
          </p>
        )}
        {profiles.isError && <ErrorNotice error={profiles.error} title="Could not load the profiles." />}
        {profiles.data?.profiles.length === 0 && (
          <p className="status">
            No profiles yet. Create one below, then open it and choose <strong>Log in by hand</strong>: you log in to a
            site in a live browser, and ending that session saves the login to the profile.
          </p>
        )}
        {profiles.data && profiles.data.profiles.length > 0 && <ProfileList profiles={profiles.data.profiles} />}
      </section>
      {created && (
        <p className="notice ok" role="status">
          Created the profile <Link to={profileHref(created)}>{created}</Link>. Open it to log in by hand or to see its
          versions.
        </p>
      )}
      <CreateProfileForm onCreated={setCreated} />
    </div>
  );
}
