import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { RunWorkflowFields } from '../../../contract/runs.ts';
import type { Variable } from '../../../contract/variables.ts';
import { ApiError, isStatus } from '../../api/errors.ts';
import { useRunStatus } from '../../api/runs/get-run-status.ts';
import { useRunWorkflow } from '../../api/runs/run-workflow.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { FormServerError } from '../FormServerError.tsx';
import { profileChoiceDefaults } from '../profile-choice.ts';
import { failedStep, StepFailure } from '../steps/StepFailure.tsx';
import { rememberRun } from './run-memory.ts';
import {
  initialVars,
  isSecretVariable,
  issueField,
  runResolver,
  SchemaHolder,
  type RunFormContext,
  type RunFormValues,
} from './run-form.ts';
import { VariablesFields } from './VariablesFields.tsx';

/** The variables a run cannot do without: required, with no default. The others run on their defaults. */
const asked = (schema: readonly Variable[]) => schema.filter((v) => v.required && v.default === undefined);

/**
 * A test run of a saved workflow from its editor: the values of the variables it cannot run without
 * (a password's typed hidden, and forgotten once the run starts), then the run's progress and its
 * outcome here (or which step failed and why), with a link to the run's own page. It runs through
 * Run's form and checks (run-form.ts), on the workflow as last saved.
 */
export function TestRun({ workflowId, schema, name }: { workflowId: string; schema: Variable[]; name: string }) {
  const id = useId();
  const run = useRunWorkflow();
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [context] = useState(() => new SchemaHolder());
  const form = useForm<RunFormValues, RunFormContext, RunWorkflowFields>({
    resolver: runResolver,
    context,
    defaultValues: {
      workflow_id: workflowId,
      vars: initialVars(schema),
      variablesJson: '',
      metadata: '',
      webhook_url: '',
      ...profileChoiceDefaults,
    },
  });
  const { register, handleSubmit, setError, reset, formState } = form;
  // A save may change the variables: the form asks for (and checks) the saved ones.
  useEffect(() => {
    context.set(schema);
    reset({ ...form.getValues(), vars: initialVars(schema) });
  }, [schema, context, reset, form]);
  const needed = asked(schema);

  const onSubmit = handleSubmit(async (fields) => {
    setSessionId(null);
    try {
      const answer = await run.mutateAsync({ fields, files: [] });
      // The values typed (a password among them) are not kept once the run has them.
      reset({ ...form.getValues(), vars: initialVars(schema) });
      if (answer.succeeded) {
        rememberRun(answer.session_id, { vncUrl: answer.vnc_url, workflowName: name });
        setSessionId(answer.session_id);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 422)
        for (const issue of err.issues) {
          const { field, message } = issueField(issue, true);
          setError(field, { type: 'server', message });
        }
    }
  });

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Test run</h2>
      <form className="test-run" onSubmit={(e) => void onSubmit(e)} noValidate>
        <p className="hint">
          Runs the workflow as last saved in a new browser, as Run does, and shows here how it went.
          {needed.length > 0 && ' It needs these values first:'}
        </p>
        {needed.length > 0 && (
          <VariablesFields
            schema={needed}
            register={register}
            errors={formState.errors.vars}
            secret={isSecretVariable}
          />
        )}
        <FormServerError message={formState.errors.root?.server?.message} />
        {run.data && !run.data.succeeded && (
          <div className="notice error" role="alert">
            <p>
              <strong>The test run could not start.</strong> {run.data.message}
            </p>
          </div>
        )}
        {run.isError && !isStatus(run.error, 422) && (
          <ErrorNotice error={run.error} title="The test run could not start." />
        )}
        <div className="row">
          <button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Starting the test run…' : sessionId ? 'Test run again' : 'Test run'}
          </button>
        </div>
      </form>
      {sessionId && <TestRunProgress sessionId={sessionId} />}
    </section>
  );
}

/** How the test run goes: its progress while it runs, then succeeded or the step that failed and why. */
function TestRunProgress({ sessionId }: { sessionId: string }) {
  const status = useRunStatus(sessionId);
  const run = status.data;
  const failedAt = run && failedStep(run);
  const runLink = <Link to={`/runs/${encodeURIComponent(sessionId)}`}>Open the run&apos;s page</Link>;
  return (
    <div className="test-run-outcome" role="status" aria-live="polite">
      {status.isError && <ErrorNotice error={status.error} title="Could not read how the test run goes." />}
      {!run && !status.isError && <p className="status">Starting the test run…</p>}
      {run && !run.completed && (
        <p className="status">
          {run.status === 'queued'
            ? `Queued${run.queue_position ? ` at position ${run.queue_position}` : ''}: waiting for a browser.`
            : run.pause
              ? 'Paused: it waits for a person on its page.'
              : `Running: ${run.results.length} of ${run.total_actions} steps done.`}{' '}
          {runLink} to watch it live.
        </p>
      )}
      {run?.completed && run.succeeded && (
        <p className="notice ok">
          The test run succeeded: {run.total_actions} of {run.total_actions} steps done. {runLink}.
        </p>
      )}
      {run?.completed && !run.succeeded && (
        <div className="notice error">
          <p>
            <strong>The test run failed{failedAt ? ` at step ${failedAt}` : ''}.</strong> {runLink}.
          </p>
          {failedAt ? <StepFailure run={run} step={failedAt} /> : <p className="wrap-anywhere">{run.message}</p>}
        </div>
      )}
    </div>
  );
}
