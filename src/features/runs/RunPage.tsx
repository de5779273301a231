import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { RunWorkflowFields } from '../../../contract/runs.ts';
import { ApiError, isStatus } from '../../api/errors.ts';
import { useRunWorkflow } from '../../api/runs/run-workflow.ts';
import { useWorkflow } from '../../api/workflows/get-workflow.ts';
import { useWorkflows } from '../../api/workflows/get-workflows.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { MetadataWebhookFields } from '../../components/MetadataWebhookFields.tsx';
import { profileChoiceDefaults } from '../../components/profile-choice.ts';
import { ProfileChoice } from '../../components/ProfileChoice.tsx';
import { FileDrop } from './FileDrop.tsx';
import { rememberRun } from '../../components/run/run-memory.ts';
import {
  initialVars,
  isSecretVariable,
  issueField,
  runResolver,
  SchemaHolder,
  type RunFormContext,
  type RunFormValues,
} from '../../components/run/run-form.ts';
import { VariablesFields } from '../../components/run/VariablesFields.tsx';
import { WorkflowNeeds } from './WorkflowNeeds.tsx';
import { FormServerError } from '../../components/FormServerError.tsx';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function RunPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const workflows = useWorkflows();
  const noList = workflows.isError; // a server with only the spec's operations: type the id
  const [typed, setTyped] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const run = useRunWorkflow();

  // The resolver reads the schema through this stable object; the effect below keeps it current.
  const [context] = useState(() => new SchemaHolder());
  const form = useForm<RunFormValues, RunFormContext, RunWorkflowFields>({
    resolver: runResolver,
    context,
    mode: 'onChange',
    defaultValues: {
      workflow_id: params.get('workflow') ?? '',
      vars: {},
      variablesJson: '',
      metadata: '',
      webhook_url: '',
      ...profileChoiceDefaults,
    },
  });
  const { register, handleSubmit, control, setError, setValue, formState } = form;
  const { errors } = formState;
  const workflowId = useWatch({ control, name: 'workflow_id' }).trim();
  const profile = useWatch({ control, name: 'profile' });
  const workflow = useWorkflow(UUID.test(workflowId) && !noList ? workflowId : undefined);
  const schema = workflow.data?.variables ?? null;

  // A newly chosen workflow brings its variables schema and its defaults.
  useEffect(() => {
    context.set(schema);
    setValue('vars', schema ? initialVars(schema) : {});
  }, [schema, setValue, context]);

  const onSubmit = handleSubmit(async (fields) => {
    try {
      const answer = await run.mutateAsync({ fields, files });
      if (answer.succeeded) {
        rememberRun(answer.session_id, { vncUrl: answer.vnc_url, workflowName: workflow.data?.name });
        void navigate(`/runs/${answer.session_id}`);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 422)
        for (const issue of err.issues) {
          const { field, message } = issueField(issue, Boolean(schema));
          setError(field, { type: 'server', message });
        }
    }
  });

  const showSelect = workflows.isSuccess && workflows.data.items.length > 0 && !typed;
  return (
    <>
      <h1>Run a workflow</h1>
      <p className="lead">
        Runs a saved workflow in a new browser session. You watch it live and see each step as it completes.
      </p>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="card">
          {workflows.isPending && (
            <p className="status" role="status">
              Loading workflows…
            </p>
          )}
          {showSelect ? (
            <Field
              label="Workflow"
              name="workflow_id"
              error={errors.workflow_id?.message}
              extra={
                <button type="button" className="secondary small" onClick={() => setTyped(true)}>
                  Type an id instead
                </button>
              }
            >
              {(p) => (
                <select {...p} {...register('workflow_id')}>
                  <option value="">Choose a workflow…</option>
                  {workflows.data.items.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : (
            !workflows.isPending && (
              <Field
                label="Workflow id"
                name="workflow_id"
                error={errors.workflow_id?.message}
                hint={
                  noList && !isStatus(workflows.error, 401) ? (
                    'This server does not list workflows: enter the id (a UUID) of a saved workflow.'
                  ) : workflows.data?.items.length === 0 ? (
                    <>
                      No saved workflows yet: <Link to="/workflows/new">create one</Link>, or enter an id.
                    </>
                  ) : (
                    'The UUID of a saved workflow.'
                  )
                }
              >
                {(p) => (
                  <input
                    {...p}
                    spellCheck={false}
                    autoComplete="off"
                    placeholder="00000000-0000-0000-0000-000000000000"
                    {...register('workflow_id')}
                  />
                )}
              </Field>
            )
          )}
          {workflow.isError && (
            <p className="field-error" role="alert">
              {isStatus(workflow.error, 404)
                ? 'No saved workflow has this id.'
                : `Could not load the workflow: ${workflow.error.message}`}
            </p>
          )}
        </div>

        {workflow.data && <WorkflowNeeds flow={workflow.data.flow} files={files} />}
        {schema && (
          <VariablesFields schema={schema} register={register} errors={errors.vars} secret={isSecretVariable} />
        )}
        {!schema && (
          <div className="card">
            <Field
              label="Variables (JSON object)"
              name="variablesJson"
              error={errors.variablesJson?.message}
              hint={
                workflow.isPending && UUID.test(workflowId) && !noList
                  ? 'Loading the variables…'
                  : 'For example {"email": "a@example.com"}. Checked as you type.'
              }
            >
              {(p) => <textarea {...p} className="code" rows={4} spellCheck={false} {...register('variablesJson')} />}
            </Field>
          </div>
        )}

        <div className="card">
          <MetadataWebhookFields
            register={{ metadata: register('metadata'), webhook_url: register('webhook_url') }}
            errors={errors}
            hints={{
              metadata:
                "Optional. Any text, such as an order id or JSON, passed back unchanged in the run's status and webhooks.",
              webhook_url: 'Optional. Receives run.started and run.completed.',
            }}
          />
          <FileDrop files={files} onChange={setFiles} />
        </div>

        <div className="card">
          <ProfileChoice
            register={{ profile: register('profile'), persist_profile: register('persist_profile') }}
            chosen={profile}
            errors={errors}
          />
        </div>

        <FormServerError message={errors.root?.server?.message} />
        {run.data && !run.data.succeeded && (
          <div className="notice error" role="alert">
            <p>
              <strong>The run could not start.</strong> {run.data.message}
            </p>
          </div>
        )}
        {run.isError && !isStatus(run.error, 422) && <ErrorNotice error={run.error} title="The run could not start." />}
        <button type="submit" disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Starting the run…' : 'Run workflow'}
        </button>
      </form>
    </>
  );
}
