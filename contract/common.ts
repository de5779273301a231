import { z } from 'zod';

/** Count Unicode code points, not UTF-16 units: the spec's "character". */
export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** A string holding JSON (the spec's session_data, metadata, variables): must parse. */
export function jsonString(what: string) {
  return z.string().refine(
    (s) => {
      try {
        JSON.parse(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: `${what} must be a string holding valid JSON` },
  );
}

export const Uuid = z.uuid();

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().optional().describe('Opaque cursor from the previous page\'s next_cursor'),
});

export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

export const Health = z.object({ status: z.literal('ok'), version: z.string() });
