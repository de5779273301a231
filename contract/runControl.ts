import { z } from 'zod';
import { FORM_OR_JSON, defineOperations } from './operation.ts';
import { FileMetadata, SessionMetadataView, StructuredValues, WorkflowMetadataView } from './runs.ts';
import { PauseType, SessionIdParams } from './sessionEvents.ts';

/**
 * What Simplex's clients call on a session beyond the spec (../shared/simplex-api.md): poll its
 * status, pause and resume its flow, interrupt it, close it, and find a workflow's live session.
 * Form calls arrive urlencoded from the clients; JSON works too.
 */

export const SessionIdForm = z.object({ session_id: z.uuid('session_id must be a session UUID') }).strict();

export const SessionStatus = z.object({
  in_progress: z
    .boolean()
    .describe('True while the run (or, for a session without a run, the session) goes on; a paused run is in progress'),
  success: z
    .boolean()
    .nullable()
    .describe(
      'null while in progress; then whether the run succeeded (a session without a run: whether it ended normally)',
    ),
  metadata: z
    .string()
    .nullable()
    .describe(
      "The caller's metadata string (run_workflow's or create_workflow_session's), byte for byte; null when none was given",
    ),
  session_metadata: SessionMetadataView,
  workflow_metadata: WorkflowMetadataView,
  file_metadata: z
    .array(FileMetadata)
    .describe("Files the session's pages downloaded and kept, oldest first; download_url is signed (a day)"),
  scraper_outputs: z.record(z.string(), z.string()).describe("The extract steps' values so far, as text"),
  structured_output: StructuredValues.nullable().describe(
    "Once the run has ended (null before): the extract values typed by the workflow's structured_output fields; undeclared ones as text",
  ),
  final_message: z.string().nullable().describe("The run's message once it has ended"),
  queued: z.boolean().describe('True while the run waits for a browser on a full host (it is in progress)'),
  queue_position: z.number().int().min(1).nullable().describe('While queued: 1 when this run starts next'),
  paused: z.boolean(),
  paused_key: z.string().describe('The pause\'s key while paused; "" otherwise (a string, as the clients type it)'),
  pause_type: PauseType.nullable(),
  pause_message: z.string().nullable().describe('What the pause step asks the person to do'),
  logs_url: z.string().describe('Live events of the session (signed; 24 hours)'),
  recording_url: z
    .string()
    .nullable()
    .optional()
    .describe("The session's screen recording (MP4, seekable), signed; null when none was kept"),
});
export type SessionStatus = z.infer<typeof SessionStatus>;

export const PauseResponse = z.object({
  succeeded: z.literal(true),
  action: z.literal('pause'),
  pause_key: z.string(),
});
export const ResumeResponse = z.object({
  succeeded: z.literal(true),
  action: z.literal('resume_session'),
  pause_type: PauseType,
  key: z.string().describe('The pause key that was resumed'),
});
export const CloseResponse = z.object({ succeeded: z.literal(true), message: z.string(), session_id: z.uuid() });
export const InterruptResponse = z.object({ succeeded: z.literal(true), message: z.string(), session_id: z.uuid() });
export type InterruptResponse = z.infer<typeof InterruptResponse>;

/** A message that resumes a paused run by its pause key, as Simplex's session server takes it on /message. */
export const FlowResumeMessage = z
  .object({
    flow_resume: z
      .string()
      .min(1, 'flow_resume must not be empty')
      .max(200, 'flow_resume must be at most 200 characters')
      .describe("The pause's key (paused_key in the session's status, pause_key of FlowPaused)"),
  })
  .strict();
export type FlowResumeMessage = z.infer<typeof FlowResumeMessage>;

export const ActiveSessionStatus = z
  .enum(['running', 'paused', 'live'])
  .describe('running/paused: a run is under way; live: a session without a run');
export type ActiveSessionStatus = z.infer<typeof ActiveSessionStatus>;

export const ActiveSession = z.object({
  session_id: z.uuid(),
  status: ActiveSessionStatus,
  logs_url: z.string(),
  message_url: z
    .string()
    .nullable()
    .describe(
      "POST messages here (signed, a day): to an editor session's agent, or to a run, whose pause a message answers; null for a session with neither",
    ),
  vnc_url: z.string().describe('A fresh interactive live view (control token), valid while the session lives'),
});
export const WorkflowIdParams = z.object({ id: z.uuid('id must be a workflow UUID') });

export const SessionFilesQuery = z.object({
  session_id: z.uuid('session_id must be a session UUID'),
  filename: z.string().max(255).optional(),
});

/** A recording is served with byte ranges (Accept-Ranges: bytes), so a video element can seek. */
const RecordingResponses = {
  200: { description: 'MP4 bytes', contentType: 'video/mp4', schema: z.string() },
  206: {
    description: 'The bytes of the Range asked for, with Content-Range',
    contentType: 'video/mp4',
    schema: z.string(),
  },
};

export const runControlOperations = defineOperations({
  sessionStatus: {
    operationId: 'sessionStatus',
    method: 'get',
    path: '/session/{id}/status',
    session: 'params.id',
    summary: "Poll a session: in progress, success, outputs, pause state (Simplex's getSessionStatus)",
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 200: { description: 'The status', schema: SessionStatus } },
    errors: [404, 422],
  },
  pause: {
    operationId: 'pause',
    method: 'post',
    path: '/pause',
    session: 'body.session_id',
    summary: "Pause the session's run before its next step; the session's timeout keeps counting",
    tags: ['runs'],
    body: { contentTypes: FORM_OR_JSON, schema: SessionIdForm },
    responses: { 200: { description: 'Paused (or already paused: the same key)', schema: PauseResponse } },
    errors: [404, 409, 415, 422],
  },
  resume: {
    operationId: 'resumeSession',
    method: 'post',
    path: '/resume_session',
    session: 'body.session_id',
    summary: 'Continue a paused run from its next step',
    tags: ['runs'],
    body: { contentTypes: FORM_OR_JSON, schema: SessionIdForm },
    responses: { 200: { description: 'Resumed', schema: ResumeResponse } },
    errors: [404, 409, 415, 422],
  },
  interrupt: {
    operationId: 'editorInterrupt',
    method: 'post',
    path: '/editor_interrupt',
    session: 'body.session_id',
    summary:
      "Stop the agent's turn, or the session's run where it is (it fails, saying so), and leave the session live for a person",
    tags: ['runs'],
    body: { contentTypes: FORM_OR_JSON, schema: SessionIdForm },
    responses: { 200: { description: 'Interrupted', schema: InterruptResponse } },
    errors: [404, 409, 415, 422],
  },
  closeSession: {
    operationId: 'closeWorkflowSession',
    method: 'post',
    path: '/close_workflow_session',
    session: 'body.session_id',
    summary:
      'End a session (reason stopped), failing its run if one is under way; closing an ended session changes nothing',
    tags: ['sessions'],
    body: { contentTypes: FORM_OR_JSON, schema: SessionIdForm },
    responses: { 200: { description: 'Closed', schema: CloseResponse } },
    errors: [404, 415, 422],
  },
  activeSession: {
    operationId: 'workflowActiveSession',
    method: 'get',
    path: '/workflow/{id}/active_session',
    summary: 'The newest live session of a workflow, with fresh URLs',
    tags: ['workflows'],
    params: WorkflowIdParams,
    responses: { 200: { description: 'The session', schema: ActiveSession } },
    errors: [404, 422],
  },
  sessionScreenshot: {
    operationId: 'sessionScreenshot',
    method: 'get',
    path: '/session/{id}/screenshot',
    session: 'params.id',
    summary: "The final page of a session's run (JPEG); screenshot_url in webhooks points here with a signed token",
    tags: ['sessions'],
    auth: { orToken: 'screenshot' },
    params: SessionIdParams,
    query: z.object({ token: z.string().max(1000).optional() }),
    responses: { 200: { description: 'JPEG bytes', contentType: 'image/jpeg', schema: z.string() } },
    errors: [401, 404, 422],
  },
  downloadSessionFiles: {
    operationId: 'downloadSessionFiles',
    method: 'get',
    path: '/download_session_files',
    session: 'query.session_id',
    summary:
      "A session's downloaded files: a zip of all of them (streamed), or the one named by filename; 404 naming what is missing",
    tags: ['sessions'],
    query: SessionFilesQuery,
    responses: {
      200: {
        description: "application/zip, or the named file's bytes (application/octet-stream), as an attachment",
        contentType: 'application/octet-stream',
        schema: z.string(),
      },
    },
    errors: [404, 422],
  },
  retrieveSessionReplay: {
    operationId: 'retrieveSessionReplay',
    method: 'get',
    path: '/retrieve_session_replay/{id}',
    session: 'params.id',
    summary:
      "A session's screen recording (fragmented MP4, H.264), from when it went live to its end (up to now while it runs); a Range header answers 206",
    tags: ['sessions'],
    params: SessionIdParams,
    responses: RecordingResponses,
    errors: [404, 416, 422],
  },
  sessionRecording: {
    operationId: 'sessionRecording',
    method: 'get',
    path: '/session/{id}/recording',
    session: 'params.id',
    summary:
      "The same recording for a <video> element, which cannot send X-API-Key: recording_url in the session's status points here with a signed token (this session only, a day)",
    tags: ['sessions'],
    auth: { orToken: 'recording' },
    params: SessionIdParams,
    query: z.object({ token: z.string().max(1000).optional() }),
    responses: RecordingResponses,
    errors: [401, 404, 416, 422],
  },
});
