import { z } from 'zod';
import { ProfileUse } from './profileUse.ts';
import { callerMetadata, parsedIfJsonText, webUrl, wellFormed } from './common.ts';
import { FORM_OR_JSON, defineOperations } from './operation.ts';
import { FlowResumeMessage, InterruptResponse, SessionIdForm } from './runControl.ts';
import { SessionIdParams } from './sessionEvents.ts';
import { Step } from './steps.ts';
import { SessionIsolation } from './isolation.ts';

/**
 * The browser agent: Simplex's editor sessions (../shared/simplex-api.md, "Editor sessions"). A
 * person starts one on a URL, chats with the agent through `message_url`, watches it drive the
 * live session, and what it did is saved as the session's workflow, which then replays without a
 * model. Its events stream on `logs_url` in Simplex's wire shape (contract/sessionEvents.ts).
 */

export const MESSAGE_MAX_CHARS = 20_000;
/** Messages that may wait for the agent at once; one more is refused (409) until it takes one up. */
export const QUEUED_MESSAGES_MAX = 100;
export const TEST_DATA_MAX_KEYS = 100;

/** A scalar test value, as a variable's value is. */
const TestValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);

export const StartEditorSessionRequest = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'name must not be empty')
      .max(200, 'name must be at most 200 characters')
      .check(wellFormed('name'))
      .describe(
        'The workflow to make; a name already taken gets " (2)", " (3)", … up to " (50)" (then 409), so nothing is overwritten',
      ),
    url: webUrl('url').describe('Where the session starts'),
    test_data: z
      .preprocess(
        // The Python client sends JSON; a form (or an older client) sends the object as a JSON string.
        parsedIfJsonText,
        z
          .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'test_data keys must be variable names'), TestValue)
          .refine((r) => Object.keys(r).length <= TEST_DATA_MAX_KEYS, {
            message: `test_data has at most ${TEST_DATA_MAX_KEYS} keys`,
          }),
      )
      .optional()
      .describe(
        "The workflow's variables and the values the agent uses now: it types {{name}} so the saved workflow takes other values later",
      ),
    metadata: callerMetadata('metadata').optional(),
    profile: z
      .preprocess(
        // A form sends the object as a JSON string, as it sends test_data.
        parsedIfJsonText,
        ProfileUse,
      )
      .optional(),
    isolation: SessionIsolation.optional().describe(
      "Browserdesk's own addition: context makes the editor's session a browser context in a browser this API key's sessions share; default: the server's SESSION_ISOLATION",
    ),
  })
  .strict();
export type StartEditorSessionRequest = z.output<typeof StartEditorSessionRequest>;

export const StartEditorSessionResponse = z.object({
  succeeded: z.literal(true),
  workflow_id: z.uuid(),
  session_id: z.uuid(),
  vnc_url: z.string().describe('The interactive live view (control token)'),
  livestream_url: z.string().describe('The watch-only live view'),
  connect_url: z.string().describe('CDP for Playwright or Puppeteer, beside the agent'),
  logs_url: z.string().describe("The session's events (SSE), the agent's included; signed, a day"),
  message_url: z.string().describe('POST {"message": "…"} here to talk to the agent; signed for this session, a day'),
  filesystem_url: z
    .null()
    .describe(
      "Simplex's session file browser; Browserdesk has none: the session's downloads are at download_session_files",
    ),
});
export type StartEditorSessionResponse = z.infer<typeof StartEditorSessionResponse>;

/** An answer to AskUserQuestion: by question index ("0") the answer text, or one text for the one question. */
export const AskUserAnswer = z
  .object({
    type: z.literal('ask_user_answer'),
    tool_use_id: z.string().min(1).max(200),
    answers: z.union([
      z.string().max(MESSAGE_MAX_CHARS),
      z.record(z.string().max(20), z.string().max(MESSAGE_MAX_CHARS)).refine((r) => Object.keys(r).length <= 20, {
        message: 'answers has at most 20 entries',
      }),
    ]),
  })
  .strict();
export type AskUserAnswer = z.infer<typeof AskUserAnswer>;

/** `SIMPLEX_CANCEL <text>` takes a queued message of that text back before the agent reads it. */
export const CANCEL_PREFIX = 'SIMPLEX_CANCEL ';

export const AgentMessageRequest = z.union([
  z
    .object({
      message: z
        .string()
        .trim()
        .min(1, 'message must not be empty')
        .max(MESSAGE_MAX_CHARS, `message must be at most ${MESSAGE_MAX_CHARS} characters`)
        .check(wellFormed('message'))
        .describe(
          `What to tell the agent. "${CANCEL_PREFIX}<text>" takes back a queued message; a JSON ask_user_answer (as Simplex's CLI sends it) answers a question`,
        ),
    })
    .strict(),
  AskUserAnswer,
]);
export type AgentMessageRequest = z.infer<typeof AgentMessageRequest>;

/** What message_url takes: a message for the agent (or a run's answer), or a run's flow_resume. */
export const SessionMessageRequest = z.union([AgentMessageRequest, FlowResumeMessage]);
export type SessionMessageRequest = z.infer<typeof SessionMessageRequest>;

export const AgentMessageResponse = z.object({ status: z.literal('received') });

export const AgentStatus = z.enum(['idle', 'working', 'waiting_for_answer', 'ended']);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** The question the agent waits on, as AskUserQuestion carried it. */
export const PendingQuestion = z.object({
  tool_use_id: z.string(),
  question: z.string(),
  options: z.array(z.string()),
});

export const AgentState = z.object({
  session_id: z.uuid(),
  workflow_id: z.uuid(),
  status: AgentStatus,
  queued: z.array(z.string()).describe('Messages waiting for the agent, oldest first'),
  question: PendingQuestion.nullable(),
  steps: z.array(Step).describe('The steps recorded so far (saved as the workflow as they come)'),
  model: z.string().describe('provider:model the agent uses'),
});
export type AgentState = z.infer<typeof AgentState>;

export const agentOperations = defineOperations({
  startEditorSession: {
    operationId: 'startEditorSession',
    method: 'post',
    path: '/start_editor_session',
    startsBrowser: true,
    summary:
      'Make a workflow, open a live session on `url` and give it an agent: talk to it on message_url, watch it on logs_url and vnc_url; what it does is saved as the workflow',
    tags: ['agent'],
    body: {
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
      schema: StartEditorSessionRequest,
    },
    responses: { 200: { description: 'Started', schema: StartEditorSessionResponse } },
    errors: [415, 422, 429, 503],
  },
  agentMessage: {
    operationId: 'agentMessage',
    method: 'post',
    path: '/session/{id}/message',
    session: 'params.id',
    summary:
      'message_url: queue a message for the session\'s agent (in order), take a queued one back, or answer its question; to a paused run, {"message"} answers its pause and {"flow_resume": key} resumes it (409 while the run is not paused)',
    tags: ['agent'],
    auth: { orToken: 'message' },
    params: SessionIdParams,
    query: z.object({ token: z.string().max(1000).optional() }),
    body: { contentTypes: ['application/json'], schema: SessionMessageRequest },
    responses: {
      200: { description: 'Queued (or taken back, or answered; a run: resumed)', schema: AgentMessageResponse },
    },
    errors: [401, 404, 409, 413, 415, 422],
  },
  agentState: {
    operationId: 'agentState',
    method: 'get',
    path: '/session/{id}/agent',
    session: 'params.id',
    summary: "The session's agent: what it is doing, the queue, its open question and the steps recorded",
    tags: ['agent'],
    params: SessionIdParams,
    responses: { 200: { description: 'The agent', schema: AgentState } },
    errors: [404, 422],
  },
  interrupt: {
    operationId: 'interrupt',
    method: 'post',
    path: '/interrupt',
    session: 'body.session_id',
    summary:
      "Stop the agent's current turn (or the session's run) where it is; the session stays live and the agent takes the next message",
    tags: ['agent'],
    body: { contentTypes: FORM_OR_JSON, schema: SessionIdForm },
    responses: { 200: { description: 'Interrupted', schema: InterruptResponse } },
    errors: [404, 409, 415, 422],
  },
});
