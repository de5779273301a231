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

export const SessionEvent = z.discriminatedUnion('event', [
  z.object({ ...common, event: z.literal('SessionStarted'), workflow_id: z.uuid() }),
  z.object({
    ...common,
    event: z.literal('RunQueued'),
    workflow_id: z.uuid(),
    position: z.number().int().min(1).describe('1: starts when the next browser frees'),
  }),
  z.object({ ...common, event: z.literal('RunStarted'), workflow_id: z.uuid(), total_actions: z.number().int() }),
  z.object({
    ...common,
    event: z.literal('ToolCallStarted'),
    ...step,
    params: z
      .record(z.string(), z.unknown())
      .describe('The step as replayed; credentials stay as {{credentials.NAME}}'),
  }),
  z.object({
    ...common,
    event: z.literal('ToolCallCompleted'),
    ...step,
    result: StepResult.shape.result,
    duration: z.number().int().describe('Milliseconds'),
  }),
  z.object({
    ...common,
    event: z.literal('RunContent'),
    outputs: z.record(z.string(), z.string()).describe('The extract outputs so far, after a step added one'),
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
  }),
  z.object({ ...common, event: z.literal('FlowResumed'), pause_key: z.string(), pause_type: PauseType }),
  z.object({
    ...common,
    event: z.literal('RunCompleted'),
    message: z.string(),
    outputs: z.record(z.string(), z.string()),
  }),
  z.object({ ...common, event: z.literal('RunError'), message: z.string(), outputs: z.record(z.string(), z.string()) }),
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
  z.object({ ...common, event: z.literal('SessionEnded'), reason: z.string() }),
]);
export type SessionEvent = z.infer<typeof SessionEvent>;
export type SessionEventName = SessionEvent['event'];
/** An event as it is recorded, before the log numbers and stamps it. */
export type SessionEventInput = SessionEvent extends infer E
  ? E extends SessionEvent
    ? Omit<E, 'index' | 'session_id' | 'created_at'>
    : never
  : never;

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
