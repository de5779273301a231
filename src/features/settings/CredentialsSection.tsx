import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { StoreCredentialInput } from '../../../contract/credentials.ts';
import { useCredentials } from '../../api/credentials/get-credentials.ts';
import { useDeleteCredential } from '../../api/credentials/delete-credential.ts';
import { useStoreCredential } from '../../api/credentials/store-credential.ts';
import { applyIssues } from '../../api/form-issues.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useConfirmedRemoval } from '../../components/useConfirmedRemoval.ts';
import { When } from '../../components/When.tsx';
import { Field } from '../../components/Field.tsx';
import { CREDENTIAL_FIELDS, credentialDefaults, credentialResolver, type CredentialValues } from './credential-form.ts';
import { FormServerError } from '../../components/FormServerError.tsx';
import { LoadStatus } from './LoadStatus.tsx';

const placeholder = (name: string) => `{{credentials.${name}}}`;

/**
 * Secrets that workflows type (passwords, codes): listed by name and date, added or replaced, and
 * deleted. A value goes to the server once and is never shown again, here or anywhere.
 */
export function CredentialsSection({ connected }: { connected: boolean }) {
  const credentials = useCredentials(connected);
  const store = useStoreCredential();
  const remove = useDeleteCredential();
  const removal = useConfirmedRemoval(remove, (name: string) => name);
  const [stored, setStored] = useState<{ name: string; replaced: boolean } | null>(null);
  const { register, handleSubmit, setError, reset, control, formState, getFieldState, setValue } = useForm<
    CredentialValues,
    unknown,
    StoreCredentialInput
  >({
    resolver: credentialResolver,
    mode: 'onTouched',
    defaultValues: credentialDefaults,
  });
  const { errors } = formState;
  const typedName = useWatch({ control, name: 'name' });
  const existing = credentials.data?.credentials.find((c) => c.name === typedName);
  const exists = existing !== undefined;
  // Replacing a credential stores the origins shown: they start as its own, so a new value does not
  // quietly let it go anywhere. What a person typed there is never overwritten.
  const existingOrigins = existing?.allowed_origins.join('\n') ?? '';
  useEffect(() => {
    if (!getFieldState('allowed_origins').isDirty) setValue('allowed_origins', existingOrigins);
  }, [existingOrigins, getFieldState, setValue]);

  const onSubmit = handleSubmit(async (body) => {
    setStored(null);
    try {
      const answer = await store.mutateAsync(body);
      // Nothing of the value stays in the page once the server has it.
      reset(credentialDefaults);
      setStored({ name: answer.name, replaced: answer.replaced });
    } catch (err) {
      if (!applyIssues(err, CREDENTIAL_FIELDS, setError))
        setError('root.server', { type: 'server', message: err instanceof Error ? err.message : 'Not stored.' });
    }
  });

  return (
    <section className="card" aria-labelledby="credentials-title">
      <h2 id="credentials-title">Credentials</h2>
      <p>
        Secrets your workflows type, such as passwords. The server keeps each value encrypted and{' '}
        <strong>never shows it again</strong>: not here, not through the API. To change one, store it again under the
        same name.
      </p>
      <p>
        A workflow uses one by its name in the value of a <em>change</em> step, for example{' '}
        <code>{placeholder('site_password')}</code>; the value is typed into the page when the run reaches that step and
        is hidden from the run&apos;s results and logs.
      </p>
      <p>
        Give a credential its <strong>allowed origins</strong> (such as <code>https://login.example.com</code>) and the
        runner types it only into pages of those origins: a workflow cannot send it to another site, which could read it
        and show it back. Without them it can be typed into any page.
      </p>

      <LoadStatus
        connected={connected}
        query={credentials}
        needsKeyTo="see and add this server's credentials"
        loading="Loading credentials…"
        failed="Could not load the credentials."
      />
      {remove.isError && <ErrorNotice error={remove.error} title="Not deleted." />}
      {credentials.data && credentials.data.credentials.length === 0 && <p className="status">No credentials yet.</p>}
      {credentials.data && credentials.data.credentials.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Stored credentials (names only; values cannot be read back)</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Allowed origins</th>
                <th scope="col" className="hide-narrow">
                  Created
                </th>
                <th scope="col">Updated</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {credentials.data.credentials.map((c) => (
                <tr key={c.id}>
                  <td>
                    {/* A 100-character name must not push the Delete button off a phone's screen. */}
                    <code style={{ overflowWrap: 'anywhere' }}>{c.name}</code>
                  </td>
                  <td>
                    {c.allowed_origins.length === 0 ? (
                      'Any page'
                    ) : (
                      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                        {c.allowed_origins.map((o) => (
                          <li key={o}>
                            <code style={{ overflowWrap: 'anywhere' }}>{o}</code>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="hide-narrow">
                    <When iso={c.created_at} />
                  </td>
                  <td>
                    <When iso={c.updated_at} />
                  </td>
                  <td>
                    <button type="button" className="secondary small danger-quiet" onClick={() => removal.ask(c.name)}>
                      Delete<span className="visually-hidden"> {c.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {connected && (
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="credential-add-title">
          <h3 id="credential-add-title">Add or replace a credential</h3>
          <Field
            label="Name"
            name="credential-name"
            error={errors.name?.message}
            hint={
              exists ? (
                <>
                  A credential named <code>{typedName}</code> exists: storing replaces its value and its allowed origins
                  (its own are filled in below).
                </>
              ) : (
                <>Letters, digits, _ and -, starting with a letter or _. Workflows type it as {placeholder('NAME')}.</>
              )
            }
          >
            {(p) => <input {...p} autoComplete="off" spellCheck={false} autoCapitalize="off" {...register('name')} />}
          </Field>
          <Field
            label="Value"
            name="credential-value"
            error={errors.value?.message}
            hint="Up to 4096 characters, sent once and stored encrypted."
          >
            {/* new-password: the browser must not fill in a password it saved for this dashboard. */}
            {(p) => (
              <input {...p} type="password" autoComplete="new-password" spellCheck={false} {...register('value')} />
            )}
          </Field>
          <Field
            label="Allowed origins (optional)"
            name="credential-origins"
            error={errors.allowed_origins?.message}
            hint={
              <>
                One a line, scheme and host only, such as <code>https://login.example.com</code>: the runner types this
                credential into pages of these origins and nowhere else. Empty: any page.
              </>
            }
          >
            {(p) => (
              <textarea
                {...p}
                className="code"
                rows={2}
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                {...register('allowed_origins')}
              />
            )}
          </Field>
          <FormServerError message={errors.root?.server?.message} />
          <button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Storing…' : exists ? 'Replace value' : 'Store credential'}
          </button>
          {stored && (
            <p className="notice ok" role="status">
              {stored.replaced ? 'Replaced the value of ' : 'Stored '}
              <code>{stored.name}</code>. Workflows can type it as <code>{placeholder(stored.name)}</code>.
            </p>
          )}
        </form>
      )}

      <ConfirmDialog {...removal.dialog} title="Delete this credential?" confirmLabel="Delete credential">
        <p>
          <strong>{removal.target}</strong> will be deleted. Workflows that type{' '}
          <code>{placeholder(removal.target ?? 'NAME')}</code> will be refused until it is stored again. This cannot be
          undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
