import { z } from 'zod';
import { ProfileUse } from './profileUse.ts';
import { codePointLength, noNul, page, PageQuery, wellFormed } from './common.ts';
import { defineOperations, FORM_OR_JSON } from './operation.ts';
import { StructuredOutput } from './outputs.ts';
import { credentialOf, CREDENTIAL_NAME, placeholdersOf } from './placeholders.ts';
import { answerVariablesOf, Flow, Step } from './steps.ts';
import { Variable, VariableAsSent } from './variables.ts';

/**
 * A saved workflow: a flow (steps.ts) plus the variables (variables.ts) its `{{name}}` placeholders
 * are filled from, with metadata and structured outputs (outputs.ts) kept for Simplex's clients.
 */

/** Every string in a JSON value with its path (iterative: the flow's depth is limited, but no recursion anyway). */
function stringsOf(value: unknown): { text: string; path: (string | number)[] }[] {
  const out: { text: string; path: (string | number)[] }[] = [];
  const todo: [unknown, (string | number)[]][] = [[value, []]];
  while (todo.length) {
    const [v, path] = todo.pop()!;
    if (typeof v === 'string') out.push({ text: v, path });
    else if (Array.isArray(v)) v.forEach((child, i) => todo.push([child, [...path, i]]));
    else if (v !== null && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) todo.push([child, [...path, k]]);
  }
  return out;
}

export const METADATA_MAX_CHARS = 10_000;
/** A workflow's metadata: free text (not necessarily JSON) that search_workflows matches exactly. */
export const WorkflowMetadata = z
  .string({ error: 'metadata must be a string' })
  .refine((s) => codePointLength(s) <= METADATA_MAX_CHARS, {
    message: `metadata must be at most ${METADATA_MAX_CHARS} characters`,
  })
  .check(wellFormed('metadata'), noNul('metadata'));
/** Metadata as sent: a string, or null; "" is the same as null (no metadata), so there is one way to say "none". */
export const MetadataInput = WorkflowMetadata.nullable()
  .transform((s) => (s === '' ? null : s))
  .describe(`Free text up to ${METADATA_MAX_CHARS} characters (not necessarily JSON); null or "" means none`);

const WorkflowFields = z
  .object({
    name: z.string().trim().min(1, 'name must not be empty').max(200).check(wellFormed('name')),
    flow: Flow,
    variables: z.array(Variable).max(100).default([]),
    metadata: MetadataInput.optional().describe(
      'Free text (≤ 10,000 characters, not necessarily JSON). Absent: none on create, the stored value kept on update; null or "" clears it',
    ),
    structured_output: StructuredOutput.optional().describe(
      'Output fields (or any JSON). Absent: none on create, the stored value kept on update; null clears it',
    ),
    profile: ProfileUse.nullable()
      .optional()
      .describe(
        "Browserdesk's own addition: the profile its runs start from (run_workflow's profile field wins). Absent: none on create, the stored one kept on update; null clears it",
      ),
  })
  .strict();

export const WorkflowInput = WorkflowFields.superRefine((w, ctx) => {
  const declared = new Set<string>();
  w.variables.forEach((v, i) => {
    if (declared.has(v.name))
      ctx.addIssue({ code: 'custom', path: ['variables', i, 'name'], message: `variable ${v.name} is declared twice` });
    declared.add(v.name);
  });
  const answers = answerVariablesOf(w.flow);
  for (const [name, i] of answers) {
    // A declared variable already has the run's value: an answer overwriting it would make {{name}} mean two things.
    if (declared.has(name))
      ctx.addIssue({
        code: 'custom',
        path: ['flow', 'steps', i, 'parameters', 'variable'],
        message: `step ${i + 1} (pause) stores its answer in ${name}, which is a declared variable: give the answer a name of its own`,
      });
  }
  w.flow.steps.forEach((step, i) => {
    for (const field of ['url', 'value'] as const) {
      const text = (step as Record<string, unknown>)[field];
      if (typeof text !== 'string') continue;
      for (const name of placeholdersOf(text)) {
        if (credentialOf(name) !== undefined) continue; // checked below, wherever they are
        const answeredAt = answers.get(name);
        if (answeredAt !== undefined && answeredAt < i) continue; // a pause before this step answers it
        if (!declared.has(name)) {
          ctx.addIssue({
            code: 'custom',
            path: ['flow', 'steps', i, field],
            message:
              answeredAt === undefined
                ? `step ${i + 1} (${step.type}) uses {{${name}}} but no variable ${name} is declared`
                : `step ${i + 1} (${step.type}) uses {{${name}}}, which the pause at step ${answeredAt + 1} answers only later`,
          });
        }
      }
    }
  });
  for (const { text, path } of stringsOf(w.flow)) {
    for (const placeholder of placeholdersOf(text)) {
      const name = credentialOf(placeholder);
      if (name === undefined) continue;
      const [top, index, field] = path;
      const step = top === 'steps' && typeof index === 'number' ? w.flow.steps[index] : undefined;
      const where = step
        ? `step ${(index as number) + 1} (${step.type === 'customStep' ? step.name : step.type}) uses {{${placeholder}}} in ${path.slice(2).join('.')}`
        : `{{${placeholder}}} is in ${path.join('.')}`;
      if (!(step?.type === 'change' && field === 'value' && path.length === 3)) {
        ctx.addIssue({
          code: 'custom',
          path: ['flow', ...path],
          message: `${where}: a credential may only be typed by a change step's value, never put in a URL (it would leak into navigation history and logs) or anywhere else`,
        });
      } else if (!CREDENTIAL_NAME.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: ['flow', ...path],
          message: `${where}: a credential name must be 1 to 100 letters, digits, _ or -, starting with a letter or _`,
        });
      }
    }
  }
});
export type WorkflowInput = z.input<typeof WorkflowInput>;

export const Workflow = z.object({
  id: z.uuid(),
  name: z.string(),
  flow: Flow,
  variables: z.array(VariableAsSent),
  metadata: z.string().nullable().describe('Free text, null when none'),
  structured_output: z
    .unknown()
    .describe(
      "As given: the output fields that type a run's structured_output, or other JSON kept for Simplex's clients; null when none",
    ),
  profile: z
    .object({ name: z.string(), persist: z.boolean() })
    .nullable()
    .optional()
    .describe('The profile its runs start from; absent when none'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type Workflow = z.infer<typeof Workflow>;

/** Workflow, with its flow as the server sent it (keys in their written order, see flowAsGiven). */
export const WorkflowAsSent = z.unknown().transform((data, ctx): Workflow => {
  const parsed = Workflow.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  return { ...parsed.data, flow: (data as { flow: Flow }).flow };
});

export const WorkflowsPage = page(Workflow);
export type WorkflowsPage = z.infer<typeof WorkflowsPage>;

export const WorkflowParams = z.object({ id: z.uuid() });

/*
 * The calls of Simplex's official clients (simplex-ts, simplex for Python) around workflows, so a
 * client pointed at /api works unchanged: search by name or metadata, set metadata, and the Python
 * client's create / get / update of a workflow, which it describes as a start `url` plus `actions`.
 */

export const SEARCH_LIMIT = 1000;
const emptyIsAbsent = (s: string | undefined) => (s === '' ? undefined : s);
export const SearchWorkflowsQuery = z.object({
  workflow_name: z
    .string()
    .max(200)
    .optional()
    .transform(emptyIsAbsent)
    .describe(
      'Part of the name, any case (Unicode case folding; %, _ and \\ are plain characters). Empty or absent: any name',
    ),
  metadata: z
    .string()
    .optional()
    .transform(emptyIsAbsent)
    .describe('The whole metadata, exactly. Empty or absent: any metadata'),
});

export const WorkflowSearchHit = z.object({
  workflow_id: z.uuid(),
  workflow_name: z.string(),
  variables: z.array(VariableAsSent),
  metadata: z.string().nullable(),
});
export const SearchWorkflowsResponse = z.object({
  succeeded: z.literal(true),
  workflows: z.array(WorkflowSearchHit).describe(`Newest first, at most ${SEARCH_LIMIT}`),
  count: z.number().int().describe('How many workflows are in this answer'),
});
export type SearchWorkflowsResponse = z.infer<typeof SearchWorkflowsResponse>;

export const UpdateWorkflowMetadataFields = z
  .object({
    workflow_id: z.uuid('workflow_id must be a UUID'),
    metadata: MetadataInput,
  })
  .strict();
export const UpdateWorkflowMetadataResponse = z.object({
  succeeded: z.literal(true),
  message: z.string(),
  workflow_id: z.uuid(),
  metadata: z.string().nullable().describe('As stored: null when cleared'),
});

/**
 * Variables as the Python client sends them: a list of variables (ours, or its CLI's with
 * description, enumValues and defaultValue), or `{name: default}` (each an optional variable typed
 * by its default; null: a string with no default). A list's items are checked as workflow variables
 * after this (simplexWorkflow.ts), so each issue names its item rather than the whole union.
 */
export const SimplexVariables = z.union([
  z
    .array(z.unknown())
    .max(100)
    .describe('Variables: [{name, type, required?, default?|defaultValue?, description?, enumValues?}]'),
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
]);
export type SimplexVariables = z.infer<typeof SimplexVariables>;

export const SimplexWorkflowCreate = z
  .object({
    name: WorkflowFields.shape.name,
    url: z
      .string()
      .min(1)
      .nullish()
      .describe(
        "Where the flow starts: its first navigate step (on update: replaces the first navigate step's url, or adds one in front)",
      ),
    actions: z
      .array(Step)
      .max(1000)
      .nullish()
      .describe(
        'Recorder steps after the start url (on update: replace every step after the first navigate step, or all steps when there is none)',
      ),
    variables: SimplexVariables.nullish().describe(
      'A list of variables, or an object {name: default}; on update replaces them all',
    ),
    structured_output: WorkflowFields.shape.structured_output,
    metadata: WorkflowFields.shape.metadata,
  })
  .strict();
export type SimplexWorkflowCreate = z.output<typeof SimplexWorkflowCreate>;
export const SimplexWorkflowUpdate = SimplexWorkflowCreate.partial();
export type SimplexWorkflowUpdate = z.output<typeof SimplexWorkflowUpdate>;

export const SimplexWorkflowResponse = z.object({ succeeded: z.literal(true), workflow: Workflow });
export const SimplexWorkflowSaved = z.object({ succeeded: z.literal(true), message: z.string(), workflow: Workflow });

export const workflowOperations = defineOperations({
  listWorkflows: {
    operationId: 'listWorkflows',
    method: 'get',
    path: '/workflows',
    summary:
      "Saved workflows, newest first; a workflow that a session's new workflow_name made is listed once it is saved (PUT) or given metadata",
    tags: ['workflows'],
    query: PageQuery,
    responses: { 200: { description: 'A page of workflows', schema: WorkflowsPage } },
    errors: [401, 422],
  },
  createWorkflow: {
    operationId: 'createWorkflow',
    method: 'post',
    path: '/workflows',
    summary: 'Save a workflow: a Chrome DevTools Recorder flow plus its variables',
    tags: ['workflows'],
    body: { contentTypes: ['application/json'], schema: WorkflowInput },
    responses: { 201: { description: 'The saved workflow', schema: Workflow } },
    errors: [400, 401, 409, 413, 415, 422],
  },
  getWorkflow: {
    operationId: 'getWorkflow',
    method: 'get',
    path: '/workflows/{id}',
    summary: 'One workflow',
    tags: ['workflows'],
    params: WorkflowParams,
    responses: { 200: { description: 'The workflow', schema: Workflow } },
    errors: [401, 404, 422],
  },
  updateWorkflow: {
    operationId: 'updateWorkflow',
    method: 'put',
    path: '/workflows/{id}',
    summary:
      "Replace a workflow's name, flow and variables. metadata and structured_output are kept when absent (so an editor that does not know them cannot wipe them) and cleared by null",
    tags: ['workflows'],
    params: WorkflowParams,
    body: { contentTypes: ['application/json'], schema: WorkflowInput },
    responses: { 200: { description: 'The updated workflow', schema: Workflow } },
    errors: [400, 401, 404, 409, 413, 415, 422],
  },
  deleteWorkflow: {
    operationId: 'deleteWorkflow',
    method: 'delete',
    path: '/workflows/{id}',
    summary: 'Delete a workflow',
    tags: ['workflows'],
    params: WorkflowParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [401, 404, 422],
  },
  searchWorkflows: {
    operationId: 'searchWorkflows',
    method: 'get',
    path: '/search_workflows',
    summary: `Find workflows by part of their name (any case) and/or their exact metadata; both must match when both are given, neither lists all. Newest first, at most ${SEARCH_LIMIT} (Simplex's clients)`,
    tags: ['workflows'],
    query: SearchWorkflowsQuery,
    responses: { 200: { description: 'The matching workflows', schema: SearchWorkflowsResponse } },
    errors: [401, 422],
  },
  updateWorkflowMetadata: {
    operationId: 'updateWorkflowMetadata',
    method: 'post',
    path: '/update_workflow_metadata',
    summary: 'Set a workflow\'s metadata ("" clears it); updated_at moves (Simplex\'s clients)',
    tags: ['workflows'],
    body: { contentTypes: FORM_OR_JSON, schema: UpdateWorkflowMetadataFields },
    responses: { 200: { description: 'The metadata as stored', schema: UpdateWorkflowMetadataResponse } },
    errors: [400, 401, 404, 413, 415, 422],
  },
  simplexGetWorkflow: {
    operationId: 'simplexGetWorkflow',
    method: 'get',
    path: '/workflow/{id}',
    summary: "One workflow, wrapped as Simplex's Python client expects",
    tags: ['workflows'],
    params: WorkflowParams,
    responses: { 200: { description: 'The workflow', schema: SimplexWorkflowResponse } },
    errors: [401, 404, 422],
  },
  simplexCreateWorkflow: {
    operationId: 'simplexCreateWorkflow',
    method: 'post',
    path: '/workflow',
    summary:
      "Create a workflow as Simplex's Python client does: `url` becomes a first navigate step and `actions` (Recorder steps) follow it. Answers 200, as Simplex does; the same rules as POST /workflows",
    tags: ['workflows'],
    body: { contentTypes: ['application/json'], schema: SimplexWorkflowCreate },
    responses: { 200: { description: 'The created workflow', schema: SimplexWorkflowSaved } },
    errors: [400, 401, 409, 413, 415, 422],
  },
  simplexUpdateWorkflow: {
    operationId: 'simplexUpdateWorkflow',
    method: 'patch',
    path: '/workflow/{id}',
    summary:
      "Change some of a workflow's fields as Simplex's Python client does: `url` replaces the first navigate step's url (or adds one in front), `actions` replace the steps after it; fields left out are kept",
    tags: ['workflows'],
    params: WorkflowParams,
    body: { contentTypes: ['application/json'], schema: SimplexWorkflowUpdate },
    responses: { 200: { description: 'The updated workflow', schema: SimplexWorkflowSaved } },
    errors: [400, 401, 404, 409, 413, 415, 422],
  },
});
