import { z } from 'zod';
import { PageQuery } from './common.ts';

/**
 * Search, start-time range and order of a list (GET /sessions, GET /runs), beside its cursor.
 * Bounded so that one request stays one cheap query: the words become LIKE clauses.
 */
export const SEARCH_MAX_CHARS = 200;
export const SEARCH_MAX_WORDS = 10;

/** The words of a search, as the server matches them: split on whitespace, empty ones dropped. */
export const searchWords = (q: string | undefined): string[] => (q ?? '').split(/\s+/).filter(Boolean);

const instant = (what: string) =>
  z.iso
    .datetime({
      offset: true,
      message: `${what} must be an ISO 8601 date and time with its time zone, such as 2026-11-01T00:00:00Z`,
    })
    .optional();

export const SortOrder = z.enum(['asc', 'desc'], { message: 'order must be asc or desc' });
export type SortOrder = z.infer<typeof SortOrder>;

/**
 * A list's page query with `q`, `from`, `to`, `sort` and `order`; `fields` are what it sorts by,
 * `created_at` (the start time, the default) first; `searchedFields` says what `q` matches, `filters`
 * are the list's own (a state, a status).
 */
export function searchablePageQuery<const F extends readonly ['created_at', ...string[]], S extends z.ZodRawShape>(
  fields: F,
  searchedFields: string,
  filters: S,
) {
  return PageQuery.extend({
    ...filters,
    q: z
      .string()
      .max(SEARCH_MAX_CHARS, { message: `q must be at most ${SEARCH_MAX_CHARS} characters` })
      .refine((q) => !q.includes('\u0000'), { message: 'q must not contain a NUL character' })
      .refine((q) => searchWords(q).length <= SEARCH_MAX_WORDS, {
        message: `q must be at most ${SEARCH_MAX_WORDS} words`,
      })
      .optional()
      .describe(
        `Words that must each appear (ASCII letters in any case) in ${searchedFields}; at most ${SEARCH_MAX_WORDS} words and ${SEARCH_MAX_CHARS} characters`,
      ),
    from: instant('from').describe('Only those started at or after this instant'),
    to: instant('to').describe('Only those started before this instant'),
    sort: z
      .enum(fields, { message: `sort must be one of ${fields.join(', ')}` })
      .default(fields[0])
      .describe('What the list is ordered by; ties newest first. A cursor keeps to the order it was given in'),
    order: SortOrder.default('desc').describe('asc or desc; an empty value sorts last either way'),
  }).superRefine((query, ctx) => {
    // The generic shape hides these two fields from the type; they are the ones defined above.
    const { from, to } = query as { from?: string; to?: string };
    if (from && to && Date.parse(from) >= Date.parse(to))
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be later than from' });
  });
}
