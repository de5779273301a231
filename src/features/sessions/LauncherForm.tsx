import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { CreateWorkflowSessionRequest } from '../../../contract/sessions.ts';
import { SESSION_TIMEOUT_MAX, SESSION_TIMEOUT_MIN } from '../../../contract/sessions.ts';
import { applyIssues } from '../../api/form-issues.ts';
import { useServerInfo } from '../../api/meta/get-server-info.ts';
import { useWorkflows } from '../../api/workflows/get-workflows.ts';
import { Field } from '../../components/Field.tsx';
import { MetadataWebhookFields } from '../../components/MetadataWebhookFields.tsx';
import { ProfileChoice } from '../../components/ProfileChoice.tsx';
import {
  defaultSessionName,
  LAUNCHER_FIELDS,
  launcherDefaults,
  launcherResolver,
  launchSummary,
  type LauncherValues,
} from './launcher-form.ts';
import { FormServerError } from '../../components/FormServerError.tsx';
import './launcher.css';

/**
 * One press launches a browser with the defaults; every other field of the create request waits
 * under Advanced (folded), validated with the contract as you type. A refusal opens Advanced, so
 * the field it names is in view.
 */
export function LauncherForm({ onLaunch }: { onLaunch(body: CreateWorkflowSessionRequest): Promise<unknown> }) {
  const { register, handleSubmit, setError, formState, control } = useForm<
    LauncherValues,
    unknown,
    CreateWorkflowSessionRequest
  >({
    resolver: launcherResolver,
    mode: 'onChange',
    defaultValues: launcherDefaults,
  });
  const { errors } = formState;
  const [advanced, setAdvanced] = useState(false);
  const [presentation, startUrl, timeout, profile] = useWatch({
    control,
    name: ['presentation', 'start_url', 'timeout', 'profile'],
  });
  const proxyConfigured = useServerInfo().data?.proxy_configured === true;
  const workflows = useWorkflows();
  const onSubmit = handleSubmit(
    async (body) => {
      try {
        await onLaunch(body);
      } catch (err) {
        if (applyIssues(err, LAUNCHER_FIELDS, setError)) setAdvanced(true);
      }
    },
    () => setAdvanced(true),
  );
  return (
    <form className="launcher" onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Launch a browser">
      <div className="launcher-bar">
        <button type="submit" disabled={formState.isSubmitting} aria-describedby="launch-summary">
          {formState.isSubmitting ? 'Starting a browser…' : 'Launch browser'}
        </button>
        <button
          type="button"
          className="secondary"
          aria-expanded={advanced}
          aria-controls="launcher-advanced"
          onClick={() => setAdvanced((open) => !open)}
        >
          Advanced
        </button>
        <p className="hint" id="launch-summary">
          {launchSummary({ presentation, start_url: startUrl, timeout, profile })}
        </p>
      </div>
      <FormServerError message={errors.root?.server?.message} />
      {/* Hidden, not unmounted: what was typed stays while Advanced is folded, and is what is sent. */}
      <div id="launcher-advanced" className="card launcher-advanced" hidden={!advanced}>
        <Field
          label="Workflow name"
          name="workflow_name"
          error={errors.workflow_name?.message}
          hint="Optional. A saved workflow (suggested as you type), or a new name: its empty workflow joins the Workflows list only once you save steps to it. Left empty, the session is named by when it starts."
        >
          {(p) => (
            <input
              {...p}
              autoComplete="off"
              list="launcher-workflows"
              placeholder={defaultSessionName(new Date())}
              {...register('workflow_name')}
            />
          )}
        </Field>
        <datalist id="launcher-workflows">
          {workflows.data?.items.map((w) => (
            <option key={w.id} value={w.name} />
          ))}
        </datalist>
        <Field
          label="Start URL"
          name="start_url"
          error={errors.start_url?.message}
          hint="Optional. The page the browser opens on; empty: a blank page."
        >
          {(p) => <input {...p} type="url" placeholder="https://example.com" {...register('start_url')} />}
        </Field>
        <ProfileChoice
          register={{ profile: register('profile'), persist_profile: register('persist_profile') }}
          chosen={profile}
          errors={errors}
        />
        {/* Offered only when the server has a PROXY_URL: without one, ticking it could only be refused. */}
        {proxyConfigured && (
          <label className="check">
            <input type="checkbox" {...register('proxies')} /> Use proxies
          </label>
        )}
        {errors.proxies && (
          <p className="field-error" role="alert">
            {errors.proxies.message}
          </p>
        )}
        <Field
          label="Timeout (seconds)"
          name="timeout"
          error={errors.timeout?.message}
          hint={`Default 1200 (20 minutes); from ${SESSION_TIMEOUT_MIN} to ${SESSION_TIMEOUT_MAX}.`}
        >
          {(p) => (
            <input
              {...p}
              type="number"
              inputMode="numeric"
              min={SESSION_TIMEOUT_MIN}
              max={SESSION_TIMEOUT_MAX}
              step={1}
              {...register('timeout')}
            />
          )}
        </Field>
        <fieldset className="choices">
          <legend>Presentation</legend>
          <label className="check">
            <input type="radio" value="browser" {...register('presentation')} /> Full browser: tabs and address bar, for
            working in it yourself
          </label>
          <label className="check">
            <input type="radio" value="kiosk" {...register('presentation')} /> Kiosk: the page alone, filling the
            screen, for embedding under your brand
          </label>
        </fieldset>
        <Field
          label="Session data (JSON)"
          name="session_data"
          error={errors.session_data?.message}
          hint={
            <>
              Optional. A Playwright storage state:{' '}
              <code>{'{"cookies": [...], "origins": [{"origin", "localStorage": [...]}]}'}</code>. Checked as you type.
            </>
          }
        >
          {(p) => <textarea {...p} className="code" rows={4} spellCheck={false} {...register('session_data')} />}
        </Field>
        <MetadataWebhookFields
          register={{ metadata: register('metadata'), webhook_url: register('webhook_url') }}
          errors={errors}
          hints={{
            metadata:
              "Optional. Any text, such as an id or JSON, passed back unchanged in the webhooks and the session's status.",
            webhook_url: 'Optional. Notified when the session starts and ends.',
          }}
        />
        <Field
          label="User agent"
          name="user_agent"
          error={errors.user_agent?.message}
          hint="Optional. The User-Agent every page of the session sends; empty: Chromium's own."
        >
          {(p) => <input {...p} autoComplete="off" spellCheck={false} {...register('user_agent')} />}
        </Field>
        {/* The fields are a long column on a phone: a launch at their end saves scrolling back up. */}
        <button type="submit" disabled={formState.isSubmitting}>
          Launch with these settings
        </button>
      </div>
    </form>
  );
}
