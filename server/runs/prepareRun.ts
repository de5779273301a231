import { healRequested, profileRequested, RunWorkflowFields } from '../../contract/runs.ts';
import { credentialNamesOf } from '../../contract/placeholders.ts';
import { Invalid, NotFound } from '../domain/errors.ts';
import { parseOrInvalid } from '../domain/parse.ts';
import { webhookUrlIssue } from '../webhooks/destination.ts';
import type { PreparedRun } from './preparedRun.ts';
import type { RunServiceDeps } from './runDeps.ts';
import type { RunForm } from './uploads.ts';
import { filesNeeded, resolveVariables } from './variables.ts';

/** What a run_workflow request is checked against: its saved workflow, the stored credentials, the webhook rule. */
export type PrepareRunDeps = Pick<RunServiceDeps, 'config' | 'workflows' | 'credentials' | 'profiles'>;

/** Every check the request can fail, before anything starts; a failure is a 4xx naming the field. */
export async function prepareRun(
  deps: PrepareRunDeps,
  run: { runId: string; filesDir: string; apiKeyId: string | null },
  form: RunForm,
): Promise<PreparedRun> {
  const fields = parseOrInvalid(RunWorkflowFields, form.fields);
  const workflow = await deps.workflows.get(fields.workflow_id).catch((err: unknown) => {
    // The caller named the workflow in a field: say which one.
    throw err instanceof NotFound
      ? new NotFound('Workflow', 'no saved workflow has this workflow_id', [
          { path: 'workflow_id', message: 'no workflow with this id' },
        ])
      : err;
  });
  const given = fields.variables ? (JSON.parse(fields.variables) as Record<string, unknown>) : {};
  const { values, issues } = resolveVariables(workflow.variables, given);
  for (const need of filesNeeded(workflow.flow)) {
    if (!form.files.includes(need.file)) {
      issues.push({ path: 'files', message: `step ${need.index + 1} (uploadFile) needs a file named ${need.file}` });
    }
  }
  const credentials = credentialNamesOf(workflow.flow);
  for (const name of await deps.credentials.missing(credentials)) {
    issues.push({
      path: 'workflow_id',
      message: `the workflow types {{credentials.${name}}} but no credential ${name} is stored: add it in Settings or with store_credential`,
    });
  }
  const webhookIssue = fields.webhook_url
    ? await webhookUrlIssue(fields.webhook_url, deps.config.WEBHOOK_ALLOW_PRIVATE)
    : null;
  if (webhookIssue) issues.push(webhookIssue);
  if (issues.length) throw new Invalid(issues);
  const profile = profileRequested(fields) ?? workflow.profile ?? undefined;
  if (profile && !(await deps.profiles.exists(profile.name)))
    throw new NotFound({ message: `Profile ${profile.name} not found: create it with POST /api/profiles` });
  return {
    runId: run.runId,
    workflowId: workflow.id,
    // Left unfilled: a value is filled into its step only as the step runs, and never read again (fillTemplate.ts).
    flow: workflow.flow,
    variables: values,
    credentials,
    totalActions: workflow.flow.steps.length,
    filesDir: run.filesDir,
    metadata: fields.metadata,
    webhookUrl: fields.webhook_url,
    heal: healRequested(fields),
    ...(profile ? { profile } : {}),
    ...(fields.isolation ? { isolation: fields.isolation } : {}),
    apiKeyId: run.apiKeyId,
  };
}
