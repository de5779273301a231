import { z } from 'zod';

/**
 * A command as a connect_url client (or the workflow runner) sends it over CDP: the only shape the
 * service hands on to a session's browser. Anything else is a protocol error on that connection.
 */

/** Largest command accepted (the WebSocket's own frame limit is the same). */
export const MAX_CDP_COMMAND_BYTES = 4 * 1024 * 1024;
/**
 * Deepest nesting of a command's JSON: Chromium's own protocol parser refuses deeper (its stack
 * limit is 300), and Playwright's serialised evaluate arguments nest past 32 for ordinary calls.
 */
export const MAX_CDP_DEPTH = 300;
/** Target.sendMessageToTarget may wrap a command that wraps another: this many levels at most. */
export const MAX_CDP_WRAPPING = 4;

export const CdpCommand = z.object({
  id: z
    .number({ error: 'A command needs a numeric id' })
    .int('id must be an integer')
    .min(0, 'id must not be negative')
    .max(Number.MAX_SAFE_INTEGER),
  method: z
    .string({ error: 'A command needs a method' })
    .min(1, 'A command needs a method')
    .max(200, 'method is too long'),
  params: z.record(z.string(), z.unknown(), { error: 'params must be an object' }).optional(),
  sessionId: z.string({ error: 'sessionId must be a string' }).max(200).optional(),
});
export type CdpCommand = z.infer<typeof CdpCommand>;
