import { useEffect, useMemo, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { Step } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';
import type { Workflow, WorkflowInput } from '../../../contract/workflows.ts';
import { isStatus } from '../../api/errors.ts';
import { useWorkflow } from '../../api/workflows/get-workflow.ts';
import { useSaveWorkflow } from '../../api/workflows/save-workflow.ts';
import { ApiError } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Field } from '../../components/Field.tsx';
import { FlowEditor } from './FlowEditor.tsx';
import { flowTextFor, rememberFlowText } from './flow-layout.ts';
import { parseLineIssues } from './flow-text.ts';
import { undeclaredPlaceholders } from './flow-variables.ts';
import { ImportRecorderButton } from './ImportRecorderButton.tsx';
import { CopyAsCode } from './CopyAsCode.tsx';
import { StepList } from './StepList.tsx';
import { VariablesEditor } from './VariablesEditor.tsx';
import { RecordSteps } from './RecordSteps.tsx';
import { insertRecorded, rowsToDeclare, type RecordPlan } from './record-insert.ts';
import { TestRun } from '../../components/run/TestRun.tsx';
import {
  emptyFlowText,
  placeIssues,
  splitPath,
  toFormValues,
  workflowResolver,
  type WorkflowFormValues,
} from './workflow-form.ts';
import { FormServerError } from '../../components/FormServerError.tsx';

/** Router state the list page passes when a Recorder file was imported there. */
export interface ImportedFlowState {
  imported?: { title: string; text: string };
  /** Set after a new workflow was created, so its own page says so. */
  saved?: boolean;
  /** Set after "Save and record" created it: its own page starts recording at once, as planned. */
  record?: RecordPlan;
}

export function WorkflowEditPage() {
  const { id } = useParams();
  const existing = useWorkflow(id);
  if (id && existing.isPending)
    return (
      <p className="status" role="status">
        Loading the workflow…
      </p>
    );
  if (id && existing.isError)
    return (
      <>
        <h1>Edit workflow</h1>
        <ErrorNotice
          error={existing.error}
          title={
            isStatus(existing.error, 404) ? 'This workflow does not exist (any more).' : 'Could not load the workflow.'
          }
        >
          <p>
            <Link to="/workflows">Back to the workflows</Link>
          </p>
        </ErrorNotice>
      </>
    );
  // Keyed: after a new workflow is created the route changes to its id, and the editor starts afresh from the saved copy.
  // The flow reads back as this browser last saved it (its spaces and line breaks) while it is unchanged.
  const initial = existing.data
    ? { ...toFormValues(existing.data), flowText: flowTextFor(existing.data.id, existing.data.flow) }
    : undefined;
  return <WorkflowEditor key={id ?? 'new'} id={id} initial={initial} saved={existing.data} />;
}

function WorkflowEditor({
  id,
  initial,
  saved,
}: {
  id?: string;
  initial?: WorkflowFormValues;
  /** The workflow as saved (kept current by each save): what a test run runs. */
  saved?: Workflow;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const state = location.state as ImportedFlowState | null;
  const imported = state?.imported;
  const save = useSaveWorkflow();
  const form = useForm<WorkflowFormValues, unknown, WorkflowInput>({
    resolver: workflowResolver,
    mode: 'onChange',
    defaultValues: initial ?? {
      name: imported?.title ?? '',
      flowText: imported?.text ?? emptyFlowText(),
      variables: [],
      metadata: '',
    },
  });
  const { register, handleSubmit, control, setError, setValue, getValues, formState } = form;
  const { errors } = formState;
  const flowText = useWatch({ control, name: 'flowText' });
  const variableRows = useWatch({ control, name: 'variables' });
  const declaredNames = variableRows.map((v) => v.name).join('\n');
  const undeclared = useMemo(
    () => undeclaredPlaceholders(flowText, declaredNames.split('\n')),
    [flowText, declaredNames],
  );
  const flowIssues = useMemo(() => parseLineIssues(errors.flowText?.message), [errors.flowText?.message]);

  // Save and record on a new workflow: what to record once its own page shows (set by the save that creates it).
  const [recordAfterSave, setRecordAfterSave] = useState<RecordPlan | undefined>(undefined);
  useEffect(() => {
    if (formState.isSubmitSuccessful && save.data && !id)
      void navigate(`/workflows/${save.data.id}`, {
        replace: true,
        state: {
          saved: true,
          ...(recordAfterSave ? { record: recordAfterSave } : {}),
        } satisfies ImportedFlowState,
      });
  }, [formState.isSubmitSuccessful, save.data, id, navigate, recordAfterSave]);

  const saveThen = (plan: RecordPlan | undefined) =>
    handleSubmit(async (input) => {
      setRecordAfterSave(plan);
      await saveValid(input);
    });
  const saveValid = async (input: WorkflowInput) => {
    try {
      const saved = await save.mutateAsync({ id, input });
      rememberFlowText(saved.id, getValues('flowText'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 422 && err.issues.length) {
        for (const p of placeIssues(
          getValues(),
          err.issues.map((i) => ({ path: splitPath(i.path), message: i.message })),
        ))
          setError(p.field as 'name', { type: 'server', message: p.message });
      } else if (err instanceof ApiError && err.status === 409) {
        setError('name', { type: 'server', message: err.message });
      }
      throw err;
    }
  };
  const onSubmit = saveThen(undefined);

  /** Recorded steps into the flow where the person chose, their variables declared, and the workflow saved. */
  const insertRecording = (steps: Step[], variables: Variable[], after: number | undefined) => {
    setValue('flowText', insertRecorded(getValues('flowText'), steps, after), {
      shouldValidate: true,
      shouldDirty: true,
    });
    const rows = rowsToDeclare(getValues('variables'), variables);
    if (rows.length) setValue('variables', [...getValues('variables'), ...rows], { shouldDirty: true });
    void onSubmit().catch(() => undefined);
  };

  return (
    <>
      <p>
        <Link to="/workflows">← Workflows</Link>
      </p>
      <h1>{id ? 'Edit workflow' : 'New workflow'}</h1>
      {/* Its own forms: outside the editor's (a form holds no form). */}
      <RecordSteps
        workflowName={id ? (save.data?.name ?? initial?.name) : undefined}
        flowText={flowText}
        declared={variableRows.map((v) => v.name.trim()).filter(Boolean)}
        onSave={insertRecording}
        onSaveFirst={(plan) => void saveThen(plan)().catch(() => undefined)}
        saving={formState.isSubmitting}
        autoStart={id ? state?.record : undefined}
        onAutoStarted={() =>
          void navigate(location.pathname, { replace: true, state: { saved: true } satisfies ImportedFlowState })
        }
      />
      {id && saved && <TestRun key={id} workflowId={id} schema={saved.variables} name={saved.name} />}
      <form onSubmit={(e) => void onSubmit(e).catch(() => undefined)} noValidate>
        <div className="card">
          <Field
            label="Name"
            name="name"
            error={errors.name?.message}
            hint="Unique; create_workflow_session finds a workflow by this name."
          >
            {(p) => <input {...p} {...register('name')} />}
          </Field>
        </div>
        <div className="flow-panes">
          <div className="card">
            <Field
              label="Flow (Chrome Recorder JSON)"
              name="flowText"
              error={errors.flowText?.message}
              hint={
                <>
                  The JSON that Chrome DevTools&apos; Recorder panel exports: <code>{'{"title", "steps": [...]}'}</code>
                  . Custom steps <code>uploadFile</code>, <code>extract</code> and <code>pause</code> are written as{' '}
                  <code>customStep</code>. A change step&apos;s value may type a stored credential:{' '}
                  <code>{'{{credentials.NAME}}'}</code> (nowhere else). In the editor, Tab moves on to the next field;{' '}
                  <kbd>Ctrl</kbd>+<kbd>]</kbd> and <kbd>Ctrl</kbd>+<kbd>[</kbd> indent.
                </>
              }
              extra={
                <ImportRecorderButton
                  label="Import file"
                  onImport={(title, text) => {
                    setValue('flowText', text, { shouldValidate: true, shouldDirty: true });
                    if (!getValues('name')) setValue('name', title, { shouldValidate: true });
                  }}
                />
              }
            >
              {(p) => (
                <Controller
                  control={control}
                  name="flowText"
                  render={({ field }) => (
                    <FlowEditor
                      control={p}
                      labelId={`${p.id}-label`}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      issues={flowIssues}
                    />
                  )}
                />
              )}
            </Field>
          </div>
          <StepList
            text={flowText}
            issues={flowIssues}
            onChange={(text) => setValue('flowText', text, { shouldValidate: true, shouldDirty: true })}
          />
        </div>
        <VariablesEditor control={control} register={register} errors={errors.variables} undeclared={undeclared} />
        <div className="card">
          <Field
            label="Metadata"
            name="metadata"
            error={errors.metadata?.message}
            hint="Free text (up to 10,000 characters), e.g. a customer or a tag; search_workflows finds workflows by it, exactly. Leave empty for none."
          >
            {(p) => <textarea {...p} rows={3} {...register('metadata')} />}
          </Field>
        </div>
        <FormServerError message={errors.root?.server?.message} />
        {save.isError && !(save.error instanceof ApiError && save.error.status === 422) && (
          <ErrorNotice error={save.error} title="Not saved." />
        )}
        {((save.isSuccess && !formState.isDirty) || (state?.saved && save.isIdle)) && (
          <p className="notice ok" role="status">
            Saved.
          </p>
        )}
        <div className="row">
          <button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : 'Save workflow'}
          </button>
          {id && (
            <Link className="button secondary" to={`/run?workflow=${id}`}>
              Run this workflow
            </Link>
          )}
        </div>
        {id && <CopyAsCode id={id} />}
      </form>
    </>
  );
}
