import type { RememberedSession } from '../../lib/session-memory.ts';

/**
 * A live session started from a profile says so; one that saves back says when: its login (cookies,
 * storage) becomes the profile's next version once the session ends.
 */
export function ProfileNote({ profile }: { profile: RememberedSession['profile'] }) {
  if (!profile) return null;
  return (
    <p className="notice" role="note">
      {profile.persist ? (
        <>
          Log in, then <strong>end the session</strong>: its browser state, your login included, is then saved to the
          profile <strong>{profile.name}</strong> as its next version.
        </>
      ) : (
        <>
          Started from the profile <strong>{profile.name}</strong>; nothing done here is saved back to it.
        </>
      )}
    </p>
  );
}
