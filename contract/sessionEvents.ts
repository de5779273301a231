import { z } from 'zod';
import { defineOperations } from './operation.ts';
import { PauseType, StepResult } from './runs.ts';

export { PauseType };

/**
 * A session's event log: what happened in it, from its start to its end, kept after it ends. It is
 * what `logs_url` streams live (server-sent events, history first), what `…/events` pages through
 * for polling, and what `retrieve_session_logs` answers once the session is over. Event names
 * follow Simplex's where it has one (RunStarted, ToolCallStarted, …), so code written for its
 * stream reads ours; steps are numbered from 1, as a person counts them.
 */
const common = {
  index: z.number().int().min(0).describe("Position in the session's log, from 0; `since` of the polling call"),
  session_id: z.uuid(),
  created_at: z.iso.datetime(),
};
const step = {
  step: z.number().int().min(1).describe('Step number, from 1'),
  action: z.string().describe('The step type; for custom steps their name (uploadFile, extract, pause)'),
};
/** A dialog a page can open (alert, confirm, prompt, or the beforeunload one). */
export const DialogType = z.enum(['alert', 'confirm', 'prompt', 'beforeunload']);
export type DialogType = z.infer<typeof DialogType>;

/** Who connected to a session: a CDP client on connect_url, or a live-view viewer. */
export const SessionClient = z.enum(['cdp', 'vnc', 'livestream']);
export type SessionClient = z.infer<typeof SessionClient>;

/**
 * Simplex's `tool` object on ToolCallStarted/ToolCallCompleted, which its CLI and examples read
 * (`tool.tool_name`, `tool.tool_call_error`, `tool.content`). A run's step carries it too, named
 * by its action, so a reader written for Simplex's agent sees what each step did.
 */
export const SimplexTool = z.object({
  tool_call_id: z.string().describe("The model's id for the call; for a run's step `step-N`"),
  tool_name: z.string().describe('The tool, or for a run the step type (click, navigate, extract, …)'),
  tool_args: z
    .record(z.string(), z.unknown())
    .describe('Its arguments as given; credentials stay as {{credentials.NAME}}'),
  content: z.string().nullable().describe('What it answered (at most 2000 characters); null until it has'),
  tool_call_error: z.boolean().nullable().describe('true when it failed; null until it has ended'),
  role: z.literal('tool'),
  created_at: z.number().int().describe('Unix seconds'),
});
export type SimplexTool = z.infer<typeof SimplexTool>;

/** Present (true) on the agent's events; absent on a workflow run's. */
const agentMark = { agent: z.literal(true).optional().describe("Present on the agent's events, absent on a run's") };

/** One question of AskUserQuestion, as Simplex's CLI renders it. */
export const AgentQuestion = z.object({
  header: z.string(),
  question: z.string(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
  multiSelect: z.boolean(),
});

export const SessionEvent = z.discriminatedUnion('event', [
  z.object({ ...common, event: z.literal('SessionStarted'), workflow_id: z.uuid() }),
  z.object({
    ...common,
    event: z.literal('RunQueued'),
    workflow_id: z.uuid(),
    position: z.number().int().min(1).describe('1: starts when the next browser frees'),
  }),
  z.object({
    ...common,
    event: z.literal('RunStarting'),
    phase: z
      .literal('browser')
      .describe('browser: a queued run left the queue and its browser is starting (SessionStarted says when it is up)'),
  }),
  z.object({
    ...common,
    event: z.literal('RunStarted'),
    workflow_id: z.uuid(),
    total_actions: z.number().int().nullable().describe("The run's steps; null for an agent's turn"),
    ...agentMark,
  }),
  z.object({
    ...common,
    event: z.literal('ToolCallStarted'),
    ...step,
    params: z
      .record(z.string(), z.unknown())
      .describe('The step as replayed; credentials stay as {{credentials.NAME}}'),
    tool_name: z.string().describe('As tool.tool_name'),
    tool: SimplexTool,
    ...agentMark,
  }),
  z.object({
    ...common,
    event: z.literal('ToolCallCompleted'),
    ...step,
    result: StepResult.shape.result,
    duration: z.number().int().describe('Milliseconds'),
    tool_name: z.string().describe('As tool.tool_name'),
    tool: SimplexTool,
    content: z.string().nullable().describe('As tool.content'),
    error: z.string().optional().describe('Why it failed, when it did'),
    ...agentMark,
  }),
  z.object({
    ...common,
    event: z.literal('RunContent'),
    outputs: z
      .record(z.string(), z.string())
      .optional()
      .describe("A run's extract outputs so far, after a step added one; absent on the agent's text"),
    content: z
      .string()
      .describe("The agent's text as it streams (a piece per event), or a run's new output as name = value"),
    content_type: z.literal('text'),
    ...agentMark,
  }),
  z.object({
    ...common,
    event: z.literal('Dialog'),
    dialog_type: DialogType,
    message: z.string().describe("The dialog's text, at most 500 characters"),
    answer: z.literal('accepted').describe('A run accepts every dialog (OK; a prompt with its default value)'),
  }),
  z.object({
    ...common,
    event: z.literal('FlowPaused'),
    pause_key: z.string(),
    pause_type: PauseType,
    message: z.string().nullable(),
    prompt: z
      .string()
      .describe(
        "What the person is asked to do (message, or '' for a pause through the API), as Simplex's CLI reads it",
      ),
  }),
  z.object({
    ...common,
    event: z.literal('FlowResumed'),
    pause_key: z.string(),
    pause_type: PauseType,
    answer: z
      .string()
      .optional()
      .describe("The person's answer, when a message to the session's message_url resumed the run"),
  }),
  z.object({
    ...common,
    event: z.literal('RunCompleted'),
    message: z.string(),
    outputs: z.record(z.string(), z.string()),
    content: z.string().describe('As message'),
    succeeded: z.literal(true),
    metrics: z.object({ duration_ms: z.number().int() }).optional().describe("The agent's turn: how long it took"),
    ...agentMark,
  }),
  z.object({
    ...common,
    event: z.literal('RunError'),
    message: z.string(),
    outputs: z.record(z.string(), z.string()),
    content: z.string().describe('As message'),
    error: z.string().describe('As message'),
    ...agentMark,
  }),
  z.object({
    ...common,
    event: z.literal('NewMessage'),
    content: z.string().describe('The message the agent takes up now (an answer to its question included)'),
    content_type: z.literal('message_boundary'),
    agent: z.literal(true),
  }),
  z.object({
    ...common,
    event: z.literal('AgentRunning'),
    content: z.enum(['true', 'false']).describe('"true" while the agent works on a message, "false" once it waits'),
    agent: z.literal(true),
  }),
  z.object({
    ...common,
    event: z.literal('AskUserQuestion'),
    tool_use_id: z.string().describe('Send it back with the answer: {"type":"ask_user_answer","tool_use_id",…}'),
    questions: z.array(AgentQuestion),
    content: z.string().describe('The question'),
    agent: z.literal(true),
  }),
  z.object({
    ...common,
    event: z.literal('StepRecorded'),
    step: z.number().int().min(1).describe("The step's number in the session's workflow"),
    recorded: z.record(z.string(), z.unknown()).describe('The Recorder step, as saved in the workflow'),
    agent: z.literal(true),
  }),
  z.object({
    ...common,
    event: z.literal('StepHealed'),
    step: z.number().int().min(1),
    action: z.string(),
    old_selectors: z.array(z.unknown()).describe("The step's selectors, none of which matched"),
    new_selectors: z.array(z.unknown()).describe('What the model found instead, which the step used'),
    workflow_id: z.uuid().describe("Apply new_selectors to this workflow's step to keep the repair"),
  }),
  z.object({
    ...common,
    event: z.literal('Navigated'),
    url: z.string().describe("The main frame's new URL (at most 2000 characters)"),
  }),
  z.object({
    ...common,
    event: z.literal('ConsoleMessage'),
    level: z.string(),
    text: z.string().describe('At most 1000 characters'),
  }),
  z.object({
    ...common,
    event: z.literal('PageError'),
    text: z.string().describe('An uncaught exception, at most 1000 characters'),
  }),
  z.object({
    ...common,
    event: z.literal('NetworkRequest'),
    method: z.string(),
    url: z.string().describe('At most 2000 characters'),
    status: z.number().int().nullable().describe('null: no response (failed)'),
    type: z.string().describe("CDP's resource type: Document, XHR, Fetch, Script, Image, …"),
    duration: z.number().describe('ms from start to finish or failure'),
    size: z.number().optional().describe('Bytes on the wire (headers and compressed body), when it finished'),
    failed: z.string().optional().describe("The browser's reason, when the request failed"),
    unlogged: z
      .number()
      .int()
      .optional()
      .describe('Requests since the previous one logged that were not (over 20 a second); the HAR has them all'),
  }),
  z.object({
    ...common,
    event: z.literal('Download'),
    filename: z.string(),
    file_size: z.number().int(),
    ok: z.boolean(),
    reason: z.string().optional(),
  }),
  z.object({
    ...common,
    event: z.literal('ClientConnected'),
    client: SessionClient.describe('cdp: a CDP client on connect_url; vnc, livestream: a live-view viewer'),
  }),
  z.object({ ...common, event: z.literal('ClientDisconnected'), client: SessionClient }),
  z.object({
    ...common,
    event: z.literal('AgentToolCall'),
    tool: z.string().describe('The agent tool called (over MCP at /api/mcp): browser_click, browser_navigate, …'),
    ok: z.boolean(),
    message: z
      .string()
      .describe('What it did, or why it failed, in a sentence (at most 500 characters; never typed text)'),
    duration: z.number().int().describe('Milliseconds'),
  }),
  z.object({
    ...common,
    event: z.literal('ProfileSaved'),
    profile: z.string(),
    saved: z.boolean(),
    version: z.number().int().nullable().describe("The profile's new version; null when nothing was saved"),
    size: z.number().int().nullable().describe('Bytes stored (compressed and encrypted); null when nothing was saved'),
    reason: z
      .string()
      .optional()
      .describe(
        'Why nothing was saved (the browser crashed, the profile is over PROFILE_MAX_BYTES, …): the previous version stays',
      ),
  }),
  z.object({
    ...common,
    event: z.literal('NodeDraining'),
    message: z.string().describe('What the drain means for this session, in words'),
    deadline: z.iso.datetime().describe('When the session ends at the latest (DRAIN_TIMEOUT_S after the drain began)'),
  }),
  z.object({
    ...common,
    event: z.literal('RecorderStep'),
    step: z.number().int().min(1).describe("The step's number in the recorded flow (GET /api/sessions/{id}/recorder)"),
    recorded: z
      .record(z.string(), z.unknown())
      .describe('The Recorder step as recorded; a password typed is its {{placeholder}}, never its value'),
  }),
  z.object({ ...common, event: z.literal('SessionEnded'), reason: z.string() }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventName = SessionEvent['event'];
/** The fields Simplex's readers look for that an event's own fields already say (see withSimplexFields). */
type Derived = 'tool_name' | 'tool' | 'content' | 'content_type' | 'error' | 'prompt' | 'succeeded';

/**
 * An event as it is recorded, before the log numbers and stamps it. Simplex's duplicates of its
 * own fields may be left out: the log adds them (withSimplexFields).
 */
export type SessionEventInput = SessionEvent extends infer E
  ? E extends SessionEvent
    ? Omit<E, 'index' | 'session_id' | 'created_at' | Derived> & Partial<Pick<E, Derived & keyof E>>
    : never
  : never;

type Stamped = SessionEventInput & { index: number; session_id: string; created_at: string };

const clipContent = (s: string) => (s.length > 2000 ? `${s.slice(0, 1999)}…` : s);

/**
 * Fill in what Simplex's readers look for from what the event says already: a step's `tool` (named
 * by its action), `content` and `error` of a run's end, `prompt` of a pause. Applied as an event is
 * recorded and as it is read back, so events stored before these fields existed read alike.
 */
export function withSimplexFields(e: Stamped): SessionEvent {
  const seconds = Math.floor(Date.parse(e.created_at) / 1000);
  switch (e.event) {
    case 'ToolCallStarted':
      return {
        ...e,
        tool_name: e.tool_name ?? e.action,
        tool: e.tool ?? {
          tool_call_id: `step-${e.step}`,
          tool_name: e.action,
          tool_args: e.params,
          content: null,
          tool_call_error: null,
          role: 'tool',
          created_at: seconds,
        },
      };
    case 'ToolCallCompleted': {
      const content =
        e.content ?? clipContent(e.result.ok ? (e.result.output ?? 'done') : (e.result.error ?? 'failed'));
      return {
        ...e,
        tool_name: e.tool_name ?? e.action,
        content,
        ...(e.result.ok ? {} : { error: e.error ?? e.result.error ?? 'failed' }),
        tool: e.tool ?? {
          tool_call_id: `step-${e.step}`,
          tool_name: e.action,
          tool_args: {},
          content,
          tool_call_error: !e.result.ok,
          role: 'tool',
          created_at: seconds,
        },
      };
    }
    case 'RunContent':
      return {
        ...e,
        content:
          e.content ??
          Object.entries(e.outputs ?? {})
            .map(([name, value]) => `${name} = ${value}`)
            .join('\n'),
        content_type: 'text',
      };
    case 'FlowPaused':
      return { ...e, prompt: e.prompt ?? e.message ?? '' };
    case 'RunCompleted':
      return { ...e, content: e.content ?? e.message, succeeded: true };
    case 'RunError':
      return { ...e, content: e.content ?? e.message, error: e.error ?? e.message };
    default:
      return e as SessionEvent;
  }
}

/** An event as stored: what the log wrote, with Simplex's fields filled in when it predates them. */
export const StoredSessionEvent = z.preprocess(
  (v) => (v && typeof v === 'object' && 'event' in v && 'created_at' in v ? withSimplexFields(v as Stamped) : v),
  SessionEvent,
);

export const SessionIdParams = z.object({ id: z.uuid({ message: 'id must be a session UUID' }) });

/**
 * Who may read a session's events: the API key (header), or the events token that `logs_url`
 * carries (scoped to that session and expiring), because EventSource cannot set headers.
 */
export const EventsAuthQuery = z.object({
  token: z.string().max(1000).optional().describe('The token in logs_url (instead of X-API-Key)'),
});

export const EventsQuery = EventsAuthQuery.extend({
  since: z.coerce.number().int().min(0).default(0).describe('First index to return'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const EventsPage = z.object({
  events: z.array(SessionEvent),
  next_index: z.number().int().describe('`since` for the next call'),
  total: z.number().int().describe('Events recorded so far'),
  has_more: z.boolean(),
});
export type EventsPage = z.infer<typeof EventsPage>;

export const SessionLogs = z.object({
  logs: z.array(SessionEvent).nullable().describe("The session's events once it has ended; null while it runs"),
});

export const sessionEventOperations = defineOperations({
  sessionEventStream: {
    operationId: 'sessionEventStream',
    method: 'get',
    path: '/session/{id}/stream',
    session: 'params.id',
    summary:
      "logs_url: the session's events as server-sent events, history first, then live; `: keep-alive` comments when idle; ends after SessionEnded",
    tags: ['sessions'],
    auth: { orToken: 'events' },
    params: SessionIdParams,
    query: EventsAuthQuery,
    responses: {
      200: {
        description: 'text/event-stream, one SessionEvent per `data:` frame',
        schema: SessionEvent,
        contentType: 'text/event-stream',
      },
    },
    errors: [401, 404, 422],
  },
  sessionEvents: {
    operationId: 'sessionEvents',
    method: 'get',
    path: '/session/{id}/events',
    session: 'params.id',
    summary: "The session's events, for polling: from `since`, at most `limit`",
    tags: ['sessions'],
    auth: { orToken: 'events' },
    params: SessionIdParams,
    query: EventsQuery,
    responses: { 200: { description: 'A page of events', schema: EventsPage } },
    errors: [401, 404, 422],
  },
  retrieveSessionLogs: {
    operationId: 'retrieveSessionLogs',
    method: 'get',
    path: '/retrieve_session_logs/{id}',
    session: 'params.id',
    summary: "The session's log: every event, once the session has ended (null while it runs)",
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 200: { description: 'The log', schema: SessionLogs } },
    errors: [401, 404, 422],
  },
});
