import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { CreateWorkflowSessionRequest } from '../../../contract/sessions.ts';
import { isStatus } from '../../api/errors.ts';
import { applyIssues } from '../../api/form-issues.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { FormServerError } from '../../components/FormServerError.tsx';
import { useLaunchSession } from '../../components/useLaunchSession.ts';
import { logInResolver, type LogInValues } from './log-in-form.ts';

/**
 * Opens a live browser on the page asked for, started from this profile and saving back to it, and
 * takes the person to that session's live view; ending the session saves their login.
 */
export function LogInByHand({ profile }: { profile: string }) {
  const { launch, create } = useLaunchSession();
  const resolver = useMemo(() => logInResolver(profile), [profile]);
  const { register, handleSubmit, setError, formState } = useForm<LogInValues, unknown, CreateWorkflowSessionRequest>({
    resolver,
    mode: 'onTouched',
    defaultValues: { start_url: '' },
  });
  const { errors } = formState;
  const onSubmit = handleSubmit(async (body) => {
    try {
      await launch(body);
    } catch (err) {
      applyIssues(err, ['start_url'], setError);
    }
  });
  return (
    <form className="card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="log-in-title">
      <h2 id="log-in-title">Log in by hand</h2>
      <p>
        A live browser opens on the page below, started from this profile. Log in there, then{' '}
        <strong>end the session</strong>: your login is saved to <strong>{profile}</strong> as its next version.
      </p>
      <Field
        label="Start URL"
        name="log-in-url"
        error={errors.start_url?.message}
        hint="The site's login page, such as https://example.com/login."
      >
        {(p) => <input {...p} type="url" placeholder="https://example.com/login" {...register('start_url')} />}
      </Field>
      <FormServerError message={errors.root?.server?.message} />
      {create.isError && !isStatus(create.error, 422) && (
        <ErrorNotice error={create.error} title="The browser did not start." />
      )}
      <button type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Starting a browser…' : 'Open a browser to log in'}
      </button>
    </form>
  );
}
