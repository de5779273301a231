import { useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { CreateProfileRequest } from '../../../contract/profiles.ts';
import { useCreateProfile } from '../../api/profiles/create-profile.ts';
import { applyIssues } from '../../api/form-issues.ts';
import { errorMessage, isStatus } from '../../api/errors.ts';
import { Field } from '../../components/Field.tsx';
import { FormServerError } from '../../components/FormServerError.tsx';
import {
  CREATE_PROFILE_FIELDS,
  createProfileDefaults,
  createProfileResolver,
  type CreateProfileValues,
} from './create-profile-form.ts';

/**
 * A new profile: a name, empty (a session logs in and saves back to it) or from a Playwright storage
 * state pasted or read from a file, which becomes its version 1. `onCreated` hears its name.
 */
export function CreateProfileForm({ onCreated }: { onCreated(name: string): void }) {
  const create = useCreateProfile();
  const [fileNote, setFileNote] = useState<string | null>(null);
  const { register, handleSubmit, setError, setValue, reset, formState } = useForm<
    CreateProfileValues,
    unknown,
    CreateProfileRequest
  >({ resolver: createProfileResolver, mode: 'onTouched', defaultValues: createProfileDefaults });
  const { errors } = formState;

  const readFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setValue('storage_state', await file.text(), { shouldValidate: true, shouldDirty: true });
    setFileNote(`Read ${file.name}: its contents are in the box below.`);
  };

  const onSubmit = handleSubmit(async (body) => {
    try {
      const created = await create.mutateAsync(body);
      reset(createProfileDefaults);
      setFileNote(null);
      onCreated(created.name);
    } catch (err) {
      // 409: the name is taken, which is the name field's business.
      if (isStatus(err, 409)) setError('name', { type: 'server', message: errorMessage(err) });
      else if (!applyIssues(err, CREATE_PROFILE_FIELDS, setError))
        setError('root.server', { type: 'server', message: errorMessage(err) });
    }
  });

  return (
    <form className="card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="profile-create-title">
      <h2 id="profile-create-title">New profile</h2>
      <Field
        label="Name"
        name="profile-name"
        error={errors.name?.message}
        hint='1 to 64 letters, digits, "-", "_" and ".", such as shop-login.'
      >
        {(p) => <input {...p} autoComplete="off" spellCheck={false} autoCapitalize="off" {...register('name')} />}
      </Field>
      <Field
        label="Import a storage state file (optional)"
        name="profile-file"
        hint="A JSON file Playwright wrote with context.storageState({ path })."
      >
        {(p) => <input {...p} type="file" accept=".json,application/json" onChange={(e) => void readFile(e)} />}
      </Field>
      {fileNote && (
        <p className="status" role="status">
          {fileNote}
        </p>
      )}
      <Field
        label="Storage state (optional)"
        name="profile-storage-state"
        error={errors.storage_state?.message}
        hint={
          <>
            Or paste one: <code>{'{"cookies": [...], "origins": [...]}'}</code>. It becomes version 1. Empty: the
            profile starts blank, ready for a session to log in and save back to it.
          </>
        }
      >
        {(p) => (
          <textarea
            {...p}
            className="code"
            rows={4}
            spellCheck={false}
            autoComplete="off"
            {...register('storage_state')}
          />
        )}
      </Field>
      <FormServerError message={errors.root?.server?.message} />
      <button type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Creating…' : 'Create profile'}
      </button>
    </form>
  );
}
