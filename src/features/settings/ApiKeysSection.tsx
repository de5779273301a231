import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { CreateApiKeyRequest, type ApiKeyInfo, type CreatedApiKey } from '../../../contract/apiKeys.ts';
import { useCreateApiKey } from '../../api/apiKeys/create-api-key.ts';
import { useApiKeys } from '../../api/apiKeys/get-api-keys.ts';
import { useRevokeApiKey } from '../../api/apiKeys/revoke-api-key.ts';
import { applyIssues } from '../../api/form-issues.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { useConfirmedRemoval } from '../../components/useConfirmedRemoval.ts';
import { When } from '../../components/When.tsx';
import { Field } from '../../components/Field.tsx';
import { FormServerError } from '../../components/FormServerError.tsx';
import { contractResolver } from '../../lib/contract-resolver.ts';
import { LoadStatus } from './LoadStatus.tsx';
import './api-keys.css';

interface KeyValues {
  name: string;
}
const resolver = contractResolver(CreateApiKeyRequest, (v: KeyValues) => ({ name: v.name }));

/** How a key is told apart without showing it: the start of one this server made, else where it came from. */
const keyHint = (k: ApiKeyInfo) =>
  k.prefix ? <code>{k.prefix}…</code> : <span className="status">set by the operator</span>;

/**
 * The server's API keys, as `npm run keys` manages them: listed by name and the first characters
 * of the ones it made (never a key or its hash), created with a name and shown once, and revoked
 * after a confirmation. A key stops working the moment it is revoked. Revoking this dashboard's
 * own key is allowed but warned about, and `onOwnKeyRevoked` forgets it here; the server refuses
 * to revoke the last active key, so the Revoke button of that one is off.
 */
export function ApiKeysSection({ connected, onOwnKeyRevoked }: { connected: boolean; onOwnKeyRevoked(): void }) {
  const keys = useApiKeys(connected);
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<KeyValues, unknown, CreateApiKeyRequest>({
    resolver,
    mode: 'onSubmit',
    defaultValues: { name: '' },
  });

  const items = keys.data?.items ?? [];
  // Active first (oldest first among them), then the revoked, newest revocation first.
  const sorted = [
    ...items.filter((k) => !k.revoked_at),
    ...items.filter((k) => k.revoked_at).sort((a, b) => b.revoked_at!.localeCompare(a.revoked_at!)),
  ];
  const activeCount = items.filter((k) => !k.revoked_at).length;

  const onSubmit = handleSubmit(async (body) => {
    setCreated(null);
    setRevoked(null);
    try {
      setCreated(await create.mutateAsync(body));
      reset({ name: '' });
    } catch (err) {
      if (!applyIssues(err, ['name'], setError))
        setError('root.server', { type: 'server', message: err instanceof Error ? err.message : 'Not created.' });
    }
  });

  const removal = useConfirmedRemoval(
    revoke,
    (key: ApiKeyInfo) => key.id,
    (key) => {
      setRevoked(key.name);
      if (created?.id === key.id) setCreated(null);
      if (key.current) onOwnKeyRevoked();
    },
  );

  return (
    <section className="card" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p>
        Every call to the API sends one of these keys as <code>X-API-Key</code>. The server keeps only a hash of each,
        so a key is shown once, when it is made. Revoking a key stops it at once, everywhere. The same as{' '}
        <code>npm run keys</code> on the server.
      </p>
      <LoadStatus
        connected={connected}
        query={keys}
        needsKeyTo="manage this server's keys"
        loading="Loading keys…"
        failed="Could not load the keys."
      />
      {revoke.isError && <ErrorNotice error={revoke.error} title="The key was not revoked." />}
      {revoked && (
        <p className="notice ok" role="status">
          Revoked <strong>{revoked}</strong>: it no longer opens the API.
        </p>
      )}
      {sorted.length > 0 && (
        <div className="table-wrap">
          <table className="api-keys">
            <caption className="visually-hidden">
              API keys of this server (names and first characters only; keys cannot be read back)
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col" className="hide-narrow">
                  Key
                </th>
                <th scope="col" className="hide-narrow">
                  Created
                </th>
                <th scope="col" className="hide-narrow">
                  Status
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((k) => (
                <tr key={k.id} className={k.revoked_at ? 'revoked' : undefined}>
                  <td>
                    <span style={{ overflowWrap: 'anywhere' }}>{k.name}</span>
                    {k.current && (
                      <>
                        {' '}
                        <span className="badge">this dashboard</span>
                      </>
                    )}
                    {/* On a phone the key column is folded under the name. */}
                    <span className="narrow-only key-under-name">
                      {keyHint(k)} · {k.revoked_at ? 'Revoked' : 'Active'}
                    </span>
                  </td>
                  <td className="hide-narrow">{keyHint(k)}</td>
                  <td className="hide-narrow">
                    <When iso={k.created_at} />
                  </td>
                  <td className="hide-narrow">
                    {k.revoked_at ? (
                      <>
                        Revoked <When iso={k.revoked_at} />
                      </>
                    ) : (
                      'Active'
                    )}
                  </td>
                  <td>
                    {!k.revoked_at && (
                      <button
                        type="button"
                        className="secondary small danger-quiet"
                        aria-label={`Revoke ${k.name}`}
                        disabled={activeCount <= 1}
                        title={
                          activeCount <= 1 ? 'The last active key cannot be revoked: create another first' : undefined
                        }
                        onClick={() => {
                          setRevoked(null);
                          removal.ask(k);
                        }}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {connected && activeCount === 1 && (
        <p className="hint">The last active key cannot be revoked: create another first.</p>
      )}

      {created && (
        <div className="notice ok new-key">
          <p role="status">
            <strong>Key “{created.name}” created. Copy it now: you won&apos;t see it again.</strong>
          </p>
          <div className="row">
            <code className="wrap-anywhere" aria-label={`New API key ${created.name}`}>
              {created.key}
            </code>
          </div>
          <div className="row">
            <CopyButton text={created.key} label="Copy key" />
            <button type="button" className="secondary small" onClick={() => setCreated(null)}>
              Done, hide it
            </button>
          </div>
        </div>
      )}

      {connected && (
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="api-key-create-title">
          <h3 id="api-key-create-title">Create a key</h3>
          <Field
            label="Name"
            name="api-key-name"
            error={formState.errors.name?.message}
            hint="Who or what will use it, such as ci-runner or alice-laptop (up to 100 characters)."
          >
            {(p) => <input {...p} autoComplete="off" spellCheck={false} {...register('name')} />}
          </Field>
          <FormServerError message={formState.errors.root?.server?.message} />
          <button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Creating…' : 'Create key'}
          </button>
        </form>
      )}

      <ConfirmDialog {...removal.dialog} title="Revoke this API key?" confirmLabel="Revoke key">
        <p>
          <strong>{removal.target?.name}</strong> stops working at once: every program that sends it is refused from its
          next call. This cannot be undone.
        </p>
        {removal.target?.current && (
          <p className="notice warn">
            <strong>This is the key this dashboard uses.</strong> Once it is revoked, this dashboard forgets it and asks
            for another key.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
