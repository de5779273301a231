import { z } from 'zod';
import { ProfileName } from './profileUse.ts';
import { callerMetadata, CALLER_METADATA_MAX_CHARS, jsonString, page } from './common.ts';
import { searchablePageQuery } from './listSearch.ts';
import { defineOperations } from './operation.ts';
import { SessionIsolation } from './isolation.ts';

/** Who paused a run. */
export const PauseType = z
  .enum(['external', 'internal'])
  .describe('external: asked for through POST /pause; internal: the flow reached a pause step');
export type PauseType = z.infer<typeof PauseType>;

/** A run's pause while it waits for a person: its key, who paused it, and what the flow's pause step asks (null through the API). */
export const PauseState = z.object({ key: z.string(), type: PauseType, message: z.string().nullable() });
export type PauseState = z.infer<typeof PauseState>;

/**
 * POST /run_workflow (multipart/form-data, spec 2.5) and what the dashboard needs around it:
 * the run's status, and the signing secret of the webhooks that report it.
 */

/** Said of a workflow_id that is not one, in words a person reading the run form acts on. */
export const WORKFLOW_ID_MESSAGE =
  'workflow_id must be the id of a saved workflow, a UUID such as 0f8e6a4c-3b1d-4c52-9e7a-2d5b8c1f4a90';

/** The text fields of the multipart request. Files arrive as parts named `files` and are streamed to disk. */
export const RunWorkflowFields = z
  .object({
    workflow_id: z.uuid(WORKFLOW_ID_MESSAGE).describe('Identifier of the saved workflow to run.'),
    metadata: callerMetadata('metadata')
      .optional()
      .describe(
        `A string of metadata: JSON, or any text (an order id), up to ${CALLER_METADATA_MAX_CHARS} characters; passed back byte for byte in the status and the webhooks.`,
      ),
    webhook_url: z
      .url('webhook_url must be an http(s) URL')
      .optional()
      .describe('Address notified with run.started and run.completed.'),
    variables: jsonString('variables')
      .refine(
        (s) => {
          try {
            const v: unknown = JSON.parse(s);
            return typeof v === 'object' && v !== null && !Array.isArray(v);
          } catch {
            return true; // not JSON at all: jsonString already said so
          }
        },
        { message: 'variables must be a string holding a JSON object' },
      )
      .optional()
      .describe('A string holding a JSON object of variables passed to the workflow.'),
    // Every encoding's fields arrive as text (http/runUploads.ts): "true"/"false", any case, as Simplex's clients send
    // booleans; kept as text here (the dashboard appends these fields to a form as they are), read by healRequested().
    heal: z
      .string()
      .regex(/^(true|false)$/i, 'heal must be "true" or "false"')
      .optional()
      .describe(
        'true: a click, change or hover step none of whose selectors matches asks the configured model for the element (from the page and what the step recorded) and, found, goes on with it; each repair is a StepHealed event carrying the new selectors to apply to the workflow. Default false.',
      ),
    profile: ProfileName.optional().describe(
      "Browserdesk's own addition: the profile (see /api/profiles) the run's browser starts from, logged in as it was saved",
    ),
    persist_profile: z
      .string()
      .regex(/^(true|false)$/i, 'persist_profile must be "true" or "false"')
      .optional()
      .describe(
        "true: the run's browser state is saved back to `profile` as its next version when the run's session ends. Default false.",
      ),
    isolation: SessionIsolation.optional().describe(
      "Browserdesk's own addition: context runs the workflow in a browser context of a browser this API key's sessions share (a run with a profile still takes a browser of its own); browser in a browser of its own. Default: the server's SESSION_ISOLATION",
    ),
  })
  .strict();
export type RunWorkflowFields = z.infer<typeof RunWorkflowFields>;

/** run_workflow's profile fields as a session takes them. */
export const profileRequested = (fields: Pick<RunWorkflowFields, 'profile' | 'persist_profile'>) =>
  fields.profile ? { name: fields.profile, persist: fields.persist_profile?.toLowerCase() === 'true' } : undefined;

/** Whether run_workflow's `heal` field asks for self-healing. */
export const healRequested = (fields: Pick<RunWorkflowFields, 'heal'>) => fields.heal?.toLowerCase() === 'true';

/** For the OpenAPI document: the fields plus zero or more `files`. */
export const RunWorkflowRequest = RunWorkflowFields.extend({
  files: z
    .array(z.file())
    .optional()
    .describe('Files for workflows that contain uploadFile steps, matched by file name.'),
});

export const RunWorkflowResponse = z.object({
  succeeded: z
    .boolean()
    .describe('Whether the run got under way (200); false with a message when it could not start (503).'),
  message: z.string(),
  session_id: z.uuid(),
  vnc_url: z
    .string()
    .describe('Watch the run: the white-label viewer page, embeddable in a frame. Empty when no session started.'),
  logs_url: z
    .string()
    .describe(
      "The run's live events (server-sent events, history first); its token opens this session's events only, for 24 hours. Empty when no session started.",
    ),
});
export type RunWorkflowResponse = z.infer<typeof RunWorkflowResponse>;

export const StepResult = z.object({
  action: z.string().describe('The step type; for custom steps, their name (uploadFile, extract)'),
  params: z.record(z.string(), z.unknown()).describe('The step as replayed, placeholders filled'),
  result: z.object({ ok: z.boolean(), error: z.string().optional(), output: z.string().optional() }),
  timestamp: z.iso.datetime().describe('When the step started'),
  duration: z.number().int().describe('Milliseconds'),
});
export type StepResult = z.infer<typeof StepResult>;

/** queued: accepted on a full host; it starts, in order, when a browser frees. */
export const RunStatus = z.enum(['queued', 'running', 'succeeded', 'failed']);
export type RunStatus = z.infer<typeof RunStatus>;

/** Not finished: waiting for a browser, or under way. */
export const UNFINISHED_RUN_STATUSES = ['queued', 'running'] as const satisfies readonly RunStatus[];
export const isUnfinished = (status: RunStatus): status is (typeof UNFINISHED_RUN_STATUSES)[number] =>
  (UNFINISHED_RUN_STATUSES as readonly RunStatus[]).includes(status);

export const RunStatusQuery = z.object({ session_id: z.uuid('session_id must be a UUID') });

export const RunStatusResponse = z.object({
  succeeded: z.boolean().describe('True once the run completed and every step succeeded'),
  completed: z.boolean(),
  status: RunStatus,
  message: z.string().describe('Why the run failed, naming the step; or a short success note'),
  results: z.array(StepResult),
  total_actions: z.number().int().describe('Steps in the flow'),
  session_id: z.uuid(),
  workflow_id: z.uuid(),
  completed_at: z.iso.datetime().nullable(),
  outputs: z.record(z.string(), z.string()).describe('Values of the extract steps, by their `as` name'),
  screenshot: z.string().nullable().describe('The final page as a data: URL (image/jpeg); null until completed'),
  pause: PauseState.nullable().describe('Set while the run waits for a person: resume it with POST /resume_session'),
  queue_position: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe('While queued: 1 when this run starts next; null once it has started'),
});
export type RunStatusResponse = z.infer<typeof RunStatusResponse>;

/** A file the session downloaded (Simplex's file_metadata). */
export const FileMetadata = z.object({
  filename: z.string(),
  download_url: z.string().describe('Signed and expiring'),
  file_size: z.number().int(),
  download_timestamp: z.iso.datetime(),
});
export type FileMetadata = z.infer<typeof FileMetadata>;

/**
 * The run's extract values as Simplex's structured_output: typed by the workflow's output fields
 * (a `number` field answers 42.5, not "42.50"; null when its text cannot be read as its type);
 * values no field declares keep their text. `scraper_outputs` keeps every value as extracted, text.
 */
export const StructuredValues = z
  .record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  )
  .describe(
    "The extract values, typed by the workflow's structured_output fields (unreadable as their type: null); undeclared ones as text",
  );
/** The workflow's metadata as Simplex's clients type it (a dict): an object when it holds a JSON object, else the string as stored; null when none. */
export const WorkflowMetadataView = z
  .union([z.record(z.string(), z.unknown()), z.string()])
  .nullable()
  .describe(
    "The workflow's metadata: an object when it holds a JSON object, else the string as stored; null when none",
  );
/** The caller's metadata parsed: the JSON value when the string holds JSON, else the string itself; null when none. */
export const SessionMetadataView = z
  .unknown()
  .describe("The caller's metadata, parsed when it holds JSON, else the string as given; null when none was given");

/**
 * Webhook body (Standard Webhooks 1.0: headers webhook-id, webhook-timestamp, webhook-signature;
 * plus X-Simplex-Signature, the hex HMAC-SHA256 of the body under the same secret, for Simplex's
 * clients). `metadata` is the caller's metadata string, byte for byte, or null when none was given.
 */
const ids = { session_id: z.uuid(), workflow_id: z.uuid(), metadata: z.string().nullable() };
const pause = { pause_key: z.string(), pause_type: PauseType };

/** The fields Simplex's own webhook carries, at the top level of a run's final event. */
export const SimplexRunPayload = z.object({
  success: z.boolean(),
  agent_response: z.string().describe("The run's message"),
  session_id: z.uuid(),
  workflow_id: z.uuid(),
  scraper_outputs: z.record(z.string(), z.string()).describe("The extract steps' values, as text"),
  structured_output: StructuredValues,
  file_metadata: z.array(FileMetadata),
  screenshot_url: z
    .string()
    .nullable()
    .describe('The final page (JPEG), signed, for 24 hours; null when there was none'),
  metadata: z.string().nullable().describe("The caller's metadata string, byte for byte"),
  session_metadata: SessionMetadataView,
  workflow_metadata: WorkflowMetadataView,
  workflow_result: z.object({
    outcome: z.enum(['succeeded', 'failed']),
    message: z.string(),
    total_actions: z.number().int(),
    steps_run: z.number().int(),
  }),
});
export type SimplexRunPayload = z.infer<typeof SimplexRunPayload>;

export const WebhookEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('session.started'), timestamp: z.iso.datetime(), data: z.object({ ...ids }) }),
  z.object({
    type: z.literal('session.ended'),
    timestamp: z.iso.datetime(),
    data: z.object({ ...ids, outcome: z.string() }),
  }),
  z.object({ type: z.literal('run.started'), timestamp: z.iso.datetime(), data: z.object({ ...ids }) }),
  z.object({
    type: z.literal('run.paused'),
    timestamp: z.iso.datetime(),
    data: z.object({
      ...ids,
      ...pause,
      message: z.string().nullable(),
      vnc_url: z.string().describe('Interactive live view, to act in before resuming'),
    }),
  }),
  z.object({ type: z.literal('run.resumed'), timestamp: z.iso.datetime(), data: z.object({ ...ids, ...pause }) }),
  z.object({
    type: z.literal('run.completed'),
    timestamp: z.iso.datetime(),
    data: z.object({
      ...ids,
      outcome: z.enum(['succeeded', 'failed']),
      message: z.string(),
      outputs: z.record(z.string(), z.string()),
    }),
    ...SimplexRunPayload.shape,
  }),
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

export const WebhookSecret = z.object({
  secret: z.string().describe('whsec_… : verify webhook-signature with any Standard Webhooks library'),
});

/** One run in the Runs list: what it ran, when, how long, how it ended. */
export const RunSummary = z.object({
  session_id: z.uuid(),
  workflow_id: z.uuid(),
  workflow_name: z.string().nullable().describe('null when the workflow has since been deleted'),
  status: RunStatus,
  message: z.string(),
  total_actions: z.number().int(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  duration_ms: z.number().int().nullable().describe('From start to end; null while running'),
});
export type RunSummary = z.infer<typeof RunSummary>;
/** What GET /runs sorts by: the start time, the workflow's name, the status, how long it took. */
export const RUN_SORT_FIELDS = ['created_at', 'workflow_name', 'status', 'duration'] as const;
export type RunSortField = (typeof RUN_SORT_FIELDS)[number];
export const RunsQuery = searchablePageQuery(
  RUN_SORT_FIELDS,
  "the run's workflow name, message or metadata, or the start of its session id",
  {
    status: RunStatus.optional(),
    workflow_id: z.uuid(WORKFLOW_ID_MESSAGE).optional(),
  },
);
export const RunsPage = page(RunSummary);
export type RunsPage = z.infer<typeof RunsPage>;

export const runOperations = defineOperations({
  listRuns: {
    operationId: 'listRuns',
    method: 'get',
    path: '/runs',
    summary:
      'Every run, newest first or in the order asked, optionally of one status or workflow, matching a search and started within a time range',
    tags: ['workflows'],
    query: RunsQuery,
    responses: { 200: { description: 'A page of runs', schema: RunsPage } },
    errors: [422],
  },
  runWorkflow: {
    operationId: 'runWorkflow',
    method: 'post',
    path: '/run_workflow',
    summary: 'Run a saved workflow in a new session; answers as soon as the run is under way',
    tags: ['workflows'],
    startsBrowser: true,
    body: {
      contentTypes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
      schema: RunWorkflowRequest,
    },
    responses: {
      200: { description: 'The run is under way; watch it at vnc_url', schema: RunWorkflowResponse },
      503: { description: 'The run could not start (succeeded false; message says why)', schema: RunWorkflowResponse },
    },
    errors: [400, 401, 404, 413, 415, 422, 429],
  },
  runWorkflowStatus: {
    operationId: 'runWorkflowStatus',
    method: 'get',
    path: '/run_workflow_status',
    session: 'query.session_id',
    summary: 'Progress and outcome of a run: per-step results, outputs, final screenshot',
    tags: ['workflows'],
    query: RunStatusQuery,
    responses: { 200: { description: 'The run', schema: RunStatusResponse } },
    errors: [401, 404, 422],
  },
  webhookSecret: {
    operationId: 'webhookSecret',
    method: 'get',
    path: '/webhooks/secret',
    summary: 'The signing secret of every webhook (created once)',
    tags: ['webhooks'],
    responses: { 200: { description: 'The secret', schema: WebhookSecret } },
    errors: [401],
  },
  rotateWebhookSecret: {
    operationId: 'rotateWebhookSecret',
    method: 'post',
    path: '/webhooks/secret/rotate',
    summary:
      'Replace the signing secret with a new one; every delivery from now on, retries included, is signed with it, so give it to your receivers',
    tags: ['webhooks'],
    responses: { 200: { description: 'The new secret', schema: WebhookSecret } },
    errors: [401],
  },
});
