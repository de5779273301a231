import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { useCheckConnection } from '../../api/connection/check-connection.ts';
import { defaultBaseUrl, hasApiKey, loadSettings, saveSettings } from '../../api/settings.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Field } from '../../components/Field.tsx';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { ApiKeySource } from './ApiKeySource.tsx';
import { CredentialsSection } from './CredentialsSection.tsx';
import { McpSection } from './McpSection.tsx';
import { ServerFactsSection } from './ServerFactsSection.tsx';
import { SettingsForm } from './settings-form.ts';
import { WebhookDeliveriesSection } from './WebhookDeliveriesSection.tsx';
import { WebhookSecretSection } from './WebhookSecretSection.tsx';

/** Only paths inside the dashboard may be returned to (no open redirect). */
function safeFrom(from: string | null): string | null {
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/settings') ? from : null;
}

export function SettingsPage() {
  const [params] = useSearchParams();
  const from = safeFrom(params.get('from'));
  const unauthorized = params.get('reason') === 'unauthorized';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const check = useCheckConnection();
  const [saved, setSaved] = useState(false);
  const [forgotten, setForgotten] = useState<'cleared' | 'revoked' | null>(null);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const form = useForm<SettingsForm>({
    resolver: zodResolver(SettingsForm),
    defaultValues: loadSettings(),
    mode: 'onTouched',
  });
  const { register, handleSubmit, setError, formState } = form;

  // The key leaves this browser (the server keeps it); what was read with it goes too.
  const forgetKey = (why: 'cleared' | 'revoked') => {
    saveSettings({ ...loadSettings(), apiKey: '' });
    form.setValue('apiKey', '');
    queryClient.clear();
    setSaved(false);
    setConfirmingClear(false);
    setForgotten(why);
  };

  const onSubmit = handleSubmit(async (values) => {
    setSaved(false);
    setForgotten(null);
    const settings = { baseUrl: values.baseUrl.replace(/\/+$/, ''), apiKey: values.apiKey.trim() };
    const result = await check.mutateAsync(settings);
    if (!result.ok) {
      setError(result.field, { type: 'server', message: result.message });
      return;
    }
    saveSettings(settings);
    await queryClient.resetQueries();
    setSaved(true);
    if (from) void navigate(from, { replace: true });
  });

  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <p className="lead">
        Where the dashboard sends its requests, and the API key it sends with them. Both stay in this browser.
      </p>
      {unauthorized && (
        <div className="notice warn" role="alert">
          <p>
            <strong>The server asked for a valid API key.</strong> Enter it below
            {from ? ' and you will go back to where you were' : ''}.
          </p>
        </div>
      )}
      <form className="card" onSubmit={onSubmit} noValidate>
        <Field
          label="API base URL"
          name="baseUrl"
          error={formState.errors.baseUrl?.message}
          hint={`Default: this server, ${defaultBaseUrl()}`}
        >
          {(p) => <input {...p} type="url" autoComplete="url" {...register('baseUrl')} />}
        </Field>
        <Field label="API key" name="apiKey" error={formState.errors.apiKey?.message} hint={<ApiKeySource />}>
          {(p) => <input {...p} type="password" autoComplete="off" spellCheck={false} {...register('apiKey')} />}
        </Field>
        <div className="row">
          <button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Checking the connection…' : 'Check and save'}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => form.setValue('baseUrl', defaultBaseUrl(), { shouldValidate: true })}
          >
            Use this server
          </button>
          {hasApiKey() && (
            <button type="button" className="secondary danger-quiet" onClick={() => setConfirmingClear(true)}>
              Clear the saved key
            </button>
          )}
        </div>
        {forgotten && (
          <p className="notice ok" role="status">
            {forgotten === 'revoked'
              ? 'The key this dashboard used was revoked, so it is no longer saved here. Enter another key to go on.'
              : 'The saved key is cleared from this browser. It still works elsewhere until it is revoked.'}
          </p>
        )}
        {saved && (
          <p className="notice ok" role="status">
            Connected. Settings saved.
          </p>
        )}
      </form>
      <ApiKeysSection connected={hasApiKey()} onOwnKeyRevoked={() => forgetKey('revoked')} />
      <ServerFactsSection connected={hasApiKey()} />
      <McpSection />
      <WebhookSecretSection connected={hasApiKey()} />
      <WebhookDeliveriesSection connected={hasApiKey()} />
      <CredentialsSection connected={hasApiKey()} />
      <ConfirmDialog
        open={confirmingClear}
        title="Clear the saved API key?"
        confirmLabel="Clear the key"
        onCancel={() => setConfirmingClear(false)}
        onConfirm={() => forgetKey('cleared')}
      >
        <p>
          This browser forgets the key, and the dashboard asks for one again. The key itself keeps working for every
          program that has it; to stop it, revoke it under API keys. Make sure you have a copy if you need it again.
        </p>
      </ConfirmDialog>
    </section>
  );
}
