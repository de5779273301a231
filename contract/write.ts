import { z } from 'zod';
import { codePointLength, page, PageQuery, wellFormed } from './common.ts';
import { defineOperations } from './operation.ts';

export const PROMPT_MAX_CHARS = 8000;
export const GENERATION_LIMIT_REACHED = 'generation limit reached';

export const WriteRequest = z
  .object({
    prompt: z
      .string()
      .refine((s) => s.trim().length > 0, { message: 'prompt must not be empty' })
      .refine((s) => codePointLength(s) <= PROMPT_MAX_CHARS, {
        message: `prompt must be at most ${PROMPT_MAX_CHARS} characters`,
      })
      .check(wellFormed('prompt'))
      .describe('Maximum 8000 characters; must not be empty. May include notes, an outline, and the desired length.'),
  })
  .strict();
export type WriteRequest = z.infer<typeof WriteRequest>;

export const Usage = z.object({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
});
export type Usage = z.infer<typeof Usage>;

export const WriteResponse = z.object({
  succeeded: z.boolean(),
  text: z.string(),
  word_count: z.number().int(),
  error: z.literal(GENERATION_LIMIT_REACHED).nullable(),
  usage: Usage,
});
export type WriteResponse = z.infer<typeof WriteResponse>;

/** Server-sent events of POST /write/stream: deltas, then one `done` carrying the /write body. */
export const WriteStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('delta'), text: z.string() }),
  z.object({ type: z.literal('done'), response: WriteResponse }),
  z.object({ type: z.literal('error'), status: z.number().int(), error: z.string(), message: z.string() }),
]);
export type WriteStreamEvent = z.infer<typeof WriteStreamEvent>;

/** One kept write (GET /writes): only successful ones, truncated included; a 502 keeps nothing. */
export const WriteRecord = z.object({
  id: z.uuid(),
  prompt: z.string(),
  text: z.string(),
  word_count: z.number().int(),
  error: z.literal(GENERATION_LIMIT_REACHED).nullable(),
  usage: Usage,
  finish_reason: z.string().describe('Why generation stopped: stop, length (the output limit), ...'),
  model: z.string().describe('provider:model that wrote it, e.g. openai-compatible:llama3.1'),
  duration_ms: z.number().int().describe('Time spent on the model call, retries included'),
  created_at: z.iso.datetime(),
});
export type WriteRecord = z.infer<typeof WriteRecord>;

export const WritesPage = page(WriteRecord);
export type WritesPage = z.infer<typeof WritesPage>;

export const writeOperations = defineOperations({
  write: {
    operationId: 'write',
    method: 'post',
    path: '/write',
    summary: 'Generate prose from a prompt',
    tags: ['writing'],
    body: { contentTypes: ['application/json'], schema: WriteRequest },
    responses: { 200: { description: 'The generated prose', schema: WriteResponse } },
    errors: [400, 401, 413, 415, 422, 502, 503],
  },
  writeStream: {
    operationId: 'writeStream',
    method: 'post',
    path: '/write/stream',
    summary: 'Generate prose as server-sent events (deltas, then the /write body)',
    tags: ['writing'],
    body: { contentTypes: ['application/json'], schema: WriteRequest },
    responses: {
      200: {
        description: 'text/event-stream of WriteStreamEvent',
        schema: WriteStreamEvent,
        contentType: 'text/event-stream',
      },
    },
    errors: [400, 401, 413, 415, 422, 503],
  },
  listWrites: {
    operationId: 'listWrites',
    method: 'get',
    path: '/writes',
    summary: 'Earlier writes, newest first',
    tags: ['writing'],
    query: PageQuery,
    responses: { 200: { description: 'A page of writes', schema: WritesPage } },
    errors: [401, 422],
  },
});
