import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { applyIssues } from '../../api/form-issues.ts';
import type { StartEditorSessionBody } from '../../api/agent/start-editor-session.ts';
import { Field } from '../../components/Field.tsx';
import { FormServerError } from '../../components/FormServerError.tsx';
import { ProfileChoice } from '../../components/ProfileChoice.tsx';
import {
  AGENT_START_FIELDS,
  agentStartDefaults,
  agentStartResolver,
  type AgentStartValues,
} from './agent-start-form.ts';

/** Workflow name, start URL, optional test data and profile, checked with the contract as you type. */
export function AgentStartForm({ onStart }: { onStart(body: StartEditorSessionBody): Promise<unknown> }) {
  const { register, control, handleSubmit, setError, formState } = useForm<
    AgentStartValues,
    unknown,
    StartEditorSessionBody
  >({ resolver: agentStartResolver, mode: 'onTouched', defaultValues: agentStartDefaults });
  const rows = useFieldArray({ control, name: 'test_data' });
  const { errors } = formState;
  const profile = useWatch({ control, name: 'profile' });
  const onSubmit = handleSubmit(async (body) => {
    try {
      await onStart(body);
    } catch (err) {
      applyIssues(err, AGENT_START_FIELDS, setError);
    }
  });
  const testDataError = errors.test_data?.message ?? errors.test_data?.root?.message;
  return (
    <form className="card" onSubmit={(e) => void onSubmit(e)} noValidate aria-labelledby="agent-start-title">
      <h2 id="agent-start-title">Start the agent</h2>
      <Field
        label="Workflow name"
        name="agent-name"
        error={errors.name?.message}
        hint="What the agent does is saved as this workflow; a name already taken gets “(2)”."
      >
        {(p) => <input {...p} autoComplete="off" {...register('name')} />}
      </Field>
      <Field label="Start URL" name="agent-url" error={errors.url?.message} hint="The page the browser opens on.">
        {(p) => <input {...p} type="url" placeholder="https://example.com" {...register('url')} />}
      </Field>
      <ProfileChoice
        register={{ profile: register('profile'), persist_profile: register('persist_profile') }}
        chosen={profile}
        errors={errors}
      />
      <fieldset className="agent-test-data" aria-describedby="agent-test-data-hint">
        <legend>Test data</legend>
        <p className="hint" id="agent-test-data-hint">
          Optional. The workflow&apos;s variables and the values the agent uses now: it types <code>{'{{name}}'}</code>,
          so the saved workflow takes other values later.
        </p>
        {rows.fields.map((row, i) => (
          <div className="row agent-test-row" key={row.id}>
            <label>
              <span className="visually-hidden">Variable {i + 1} name</span>
              <input placeholder="name" autoComplete="off" spellCheck={false} {...register(`test_data.${i}.key`)} />
            </label>
            <label>
              <span className="visually-hidden">Variable {i + 1} value</span>
              <input placeholder="value" autoComplete="off" {...register(`test_data.${i}.value`)} />
            </label>
            <button type="button" className="secondary small" onClick={() => rows.remove(i)}>
              Remove<span className="visually-hidden"> variable {i + 1}</span>
            </button>
          </div>
        ))}
        <button type="button" className="secondary small" onClick={() => rows.append({ key: '', value: '' })}>
          Add a variable
        </button>
        {testDataError && (
          <p className="field-error" role="alert">
            {testDataError}
          </p>
        )}
      </fieldset>
      <FormServerError message={errors.root?.server?.message ?? errors.root?.message} />
      <button type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Starting…' : 'Start the agent'}
      </button>
    </form>
  );
}
