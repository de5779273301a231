import { z } from 'zod';

/** Count Unicode code points, not UTF-16 units: the spec's "character". */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Deepest nesting of arrays and objects accepted in any JSON a client sends (a workflow's flow, the
 * variables or metadata of a run). Recorder flows nest about 5 levels; the limit is there so that
 * a 5000-level document is a 422 rather than a stack overflow wherever it is walked recursively.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests arrays/objects more than `limit` levels deep. Iterative: safe on any depth. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const todo: [unknown, number][] = [[value, 0]];
  while (todo.length) {
    const [v, depth] = todo.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v))
      if (child !== null && typeof child === 'object') todo.push([child, depth + 1]);
  }
  return false;
}

export const tooDeepMessage = (what: string, limit = MAX_JSON_DEPTH) =>
  `${what} nests arrays and objects more than ${limit} levels deep`;

/** Reusable check: a JSON value nested at most MAX_JSON_DEPTH levels. */
export const shallowJson = (what: string) =>
  z.refine<unknown>((v) => !nestsDeeperThan(v, MAX_JSON_DEPTH), { message: tooDeepMessage(what) });

/**
 * Lone UTF-16 surrogates (JSON's "\ud800" with no partner) are not Unicode text: stored as UTF-8
 * they would silently become U+FFFD, so what is read back would differ from what was sent.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;
export const isWellFormed = (text: string) => !LONE_SURROGATE.test(text);

/** Reusable check for text that is stored: no lone surrogates (422 naming the field). */
export const wellFormed = (what: string) =>
  z.refine<string>((s) => isWellFormed(s), {
    message: `${what} contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape): it is not valid Unicode text and could not be stored as sent`,
  });

/**
 * U+0000 cannot be stored as text in Postgres (SQLite would keep it): refused everywhere, so what
 * is read back is what was sent on either store.
 */
export const noNul = (what: string) =>
  z.refine<string>((s) => !s.includes('\u0000'), {
    message: `${what} contains the NUL character (U+0000), which cannot be stored`,
  });

/**
 * The caller's metadata of a run or a session: any string (Simplex's clients send ids such as
 * "req-789" as well as JSON), kept and handed back byte for byte. The limit keeps a 422 reachable
 * before the 1 MiB body limit whatever the encoding (urlencoded, a 4-byte character takes 12 bytes).
 */
export const CALLER_METADATA_MAX_CHARS = 50_000;
export const callerMetadata = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .refine((s) => codePointLength(s) <= CALLER_METADATA_MAX_CHARS, {
      message: `${what} must be at most ${CALLER_METADATA_MAX_CHARS} characters`,
    })
    .check(wellFormed(what), noNul(what));

/** JSON.parse without throwing. */
export function parseJson(s: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    return { ok: false };
  }
}

const utf8 = new TextEncoder();
/** Bytes of `text` as UTF-8 (the contract runs in the dashboard too: no Buffer). */
/** A value a form may send as JSON text (an object as a string), parsed; anything else as it came, for the schema to judge. */
export function parsedIfJsonText(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const parsed = parseJson(v);
  return parsed.ok ? parsed.value : v;
}

export const utf8Length = (text: string) => utf8.encode(text).length;

/** A string holding JSON (the spec's session_data, metadata, variables): must parse, and not nest too deeply. */
export function jsonString(what: string) {
  return z.string().superRefine((s, ctx) => {
    const json = parseJson(s);
    if (!json.ok) ctx.addIssue({ code: 'custom', message: `${what} must be a string holding valid JSON` });
    else if (nestsDeeperThan(json.value, MAX_JSON_DEPTH))
      ctx.addIssue({ code: 'custom', message: tooDeepMessage(what) });
  });
}

export const Uuid = z.uuid();

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional().describe("Opaque cursor from the previous page's next_cursor"),
});

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

export const Health = z.object({ status: z.literal('ok'), version: z.string() });

/** Only pages on the web: file:, chrome:, javascript: and data: would reach past the session's sandboxing or the egress policy's view. */
export const webUrl = (what: string) =>
  z
    .url({ protocol: /^https?$/, message: `${what} must be an http:// or https:// URL` })
    .max(8000, { message: `${what} must be at most 8000 characters` })
    .describe(`${what}: an http:// or https:// URL`);
