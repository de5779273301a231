import { useNavigate } from 'react-router';
import type { Profile } from '../../../contract/profiles.ts';
import { useDeleteProfile } from '../../api/profiles/delete-profile.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useConfirmedRemoval } from '../../components/useConfirmedRemoval.ts';

/**
 * Delete a profile after a confirmation, then back to the list. The server refuses (409) while a
 * session uses it and says which: that answer is shown as it is.
 */
export function DeleteProfile({ profile }: { profile: Profile }) {
  const remove = useDeleteProfile();
  const navigate = useNavigate();
  const removal = useConfirmedRemoval(
    remove,
    (p: Profile) => p.name,
    () => void navigate('/profiles'),
  );
  return (
    <>
      <button type="button" className="danger" onClick={() => removal.ask(profile)}>
        Delete profile…
      </button>
      {remove.isError && <ErrorNotice error={remove.error} title="The profile was not deleted." />}
      <ConfirmDialog {...removal.dialog} title="Delete this profile?" confirmLabel="Delete profile">
        <p>
          <strong>{profile.name}</strong> and every version of it will be deleted; sessions and runs that name it will
          be refused. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}
