import { z } from 'zod';
import { defineOperations } from './operation.ts';
import { SessionIdParams } from './sessionEvents.ts';
import { Flow } from './steps.ts';
import { StoredVariable } from './variables.ts';

/**
 * The recorder of a live session: a person's clicks and keystrokes in the browser become a Chrome
 * Recorder flow (server/recorder/). The page-side script sends each trusted DOM event as one
 * RecorderMessage; the server checks it here before it becomes a step, so a message is never more
 * than the few shapes below, whatever the page does.
 */

/** Bytes of one message from the page: anything longer is dropped unread (and counted). */
export const RECORDER_MESSAGE_MAX_BYTES = 64 * 1024;
/** Messages a recording takes per second; beyond it they are dropped and the answer says so. */
export const RECORDER_MESSAGES_PER_SECOND = 40;

const Part = z.string().min(1).max(2000);
/** Recorder selectors as the page script writes them: chains of parts (one per shadow root). */
const PageSelectors = z.array(z.array(Part).min(1).max(16)).min(1).max(8);
const Frame = z.array(z.number().int().min(0).max(1000)).max(16);
const Offset = z.number().finite().min(-100_000).max(100_000);
/** A scroll position in CSS pixels (negative in a right-to-left scroller). */
const ScrollPosition = z.number().finite().min(-10_000_000).max(10_000_000);
const on = {
  selectors: PageSelectors,
  frame: Frame.optional(),
  seq: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31),
};

/** What the page script sends (server/recorder/pageScript.ts), checked before it becomes a step. */
export const RecorderMessage = z.discriminatedUnion('kind', [
  z.strictObject({ ...on, kind: z.literal('click'), offsetX: Offset, offsetY: Offset }),
  z.strictObject({ ...on, kind: z.literal('doubleClick'), offsetX: Offset, offsetY: Offset }),
  z.strictObject({
    ...on,
    kind: z.literal('change'),
    /** Absent for a secret field: its value never leaves the page. */
    value: z.string().max(100_000).optional(),
    secret: z.boolean(),
    /** The field's name, id or autocomplete: what a secret's placeholder is named after. */
    field: z.string().max(200),
  }),
  /** A pointer went down on an element: its aria selector is read now, for the click that follows. */
  z.strictObject({ frame: Frame.optional(), seq: on.seq, kind: z.literal('pointer') }),
  z.strictObject({ frame: Frame.optional(), kind: z.literal('key'), key: z.enum(['Enter', 'Escape', 'Tab']) }),
  z.strictObject({ ...on, kind: z.literal('upload'), file: z.string().min(1).max(255) }),
  /** The element the pointer rested on to show the one pressed next (a menu opened by hovering). */
  z.strictObject({ ...on, kind: z.literal('hover') }),
  /** Where the person's scroll came to rest: an element's (with its selectors) or the window's. */
  z.strictObject({
    frame: Frame.optional(),
    kind: z.literal('scroll'),
    selectors: PageSelectors.optional(),
    x: ScrollPosition,
    y: ScrollPosition,
  }),
]);
export type RecorderMessage = z.infer<typeof RecorderMessage>;

export const RecorderState = z.object({
  flow: Flow.describe('The recorded Chrome Recorder flow: saves as a workflow and replays with no model'),
  variables: z
    .array(StoredVariable)
    .describe(
      'The placeholders the flow uses (a password typed is {{password}}, never its value): declare them when saving',
    ),
  recording: z.boolean().describe('false once stopped (or the session ended)'),
  warnings: z
    .array(z.string())
    .describe('What was not recorded and why (messages over the rate or size limit, malformed ones)'),
});
export type RecorderState = z.infer<typeof RecorderState>;

export const recorderOperations = defineOperations({
  startRecorder: {
    operationId: 'startRecorder',
    method: 'post',
    path: '/sessions/{id}/recorder',
    session: 'params.id',
    summary:
      "Start recording what a person does in the live session (every tab and frame) as a workflow: the start page, clicks, typing (one change per field, passwords as {{placeholders}}), choices, Enter/Escape/Tab, scrolls, hovers that open what is clicked next, uploads. Each step is also a RecorderStep event in the session's log",
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 201: { description: 'Recording: the flow so far (its start page)', schema: RecorderState } },
    errors: [401, 404, 409, 422],
  },
  getRecorder: {
    operationId: 'getRecorder',
    method: 'get',
    path: '/sessions/{id}/recorder',
    session: 'params.id',
    summary: 'The flow recorded so far, with the variables it needs',
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 200: { description: 'The recording', schema: RecorderState } },
    errors: [401, 404, 422],
  },
  stopRecorder: {
    operationId: 'stopRecorder',
    method: 'delete',
    path: '/sessions/{id}/recorder',
    session: 'params.id',
    summary: 'Stop recording and answer the flow, ready to save as a workflow (POST /api/workflows)',
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 200: { description: 'The recorded flow', schema: RecorderState } },
    errors: [401, 404, 422],
  },
});
