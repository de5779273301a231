import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { useProfiles } from '../api/profiles/get-profiles.ts';
import { Field } from './Field.tsx';

/**
 * The optional profile a session or run starts from (a select of the saved profiles, None first) and
 * whether its state is saved back to it when it ends; that box is off until a profile is chosen.
 */
export function ProfileChoice({
  register,
  chosen,
  errors,
}: {
  register: { profile: UseFormRegisterReturn<'profile'>; persist_profile: UseFormRegisterReturn<'persist_profile'> };
  /** The profile chosen now ('' for none). */
  chosen: string;
  errors: { profile?: FieldError; persist_profile?: FieldError };
}) {
  const profiles = useProfiles();
  const names = profiles.data?.profiles.map((p) => p.name) ?? [];
  return (
    <>
      <Field
        label="Profile"
        name="profile"
        error={errors.profile?.message}
        hint={
          profiles.isError
            ? 'Could not load the profiles; start without one.'
            : names.length === 0 && profiles.isSuccess
              ? 'No profiles yet: a profile is a saved login, made on the Profiles page.'
              : 'Optional. Start logged in, from the browser state saved in a profile.'
        }
      >
        {(p) => (
          <select {...p} {...register.profile}>
            <option value="">None</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label className="check">
        <input type="checkbox" disabled={chosen === ''} {...register.persist_profile} /> Save changes back to the
        profile
      </label>
      {errors.persist_profile && (
        <p className="field-error" role="alert">
          {errors.persist_profile.message}
        </p>
      )}
    </>
  );
}
