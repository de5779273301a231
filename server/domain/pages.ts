import { Invalid } from './errors.ts';

/** Where a page of a newest-first list ends: the (created_at, id) of its last row. */
export interface PageKey {
  created_at: string;
  id: string;
}

/** One page of a newest-first list as clients get it: next_cursor asks for the page after. */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** The opaque next_cursor handed to clients for lists ordered by (created_at, id). */
export const encodeCursor = (key: PageKey) =>
  Buffer.from(JSON.stringify([key.created_at, key.id])).toString('base64url');

/** Reads back a cursor of encodeCursor(); anything else is a 422 on the cursor field. */
export function decodeCursor(cursor: string): PageKey {
  try {
    const [created_at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof created_at === 'string' && typeof id === 'string') return { created_at, id };
  } catch {
    // fall through to the 422
  }
  throw new Invalid([{ path: 'cursor', message: 'not a cursor from a previous page' }]);
}

/**
 * The page after `cursor` (the first when absent or empty): `fetch` is asked for one row more than
 * the page holds, which tells whether another page follows without counting.
 */
export async function pageOf<Row extends PageKey, T>(
  request: { limit: number; cursor?: string },
  fetch: (limit: number, before: PageKey | undefined) => Promise<Row[]>,
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  const rows = await fetch(request.limit + 1, request.cursor ? decodeCursor(request.cursor) : undefined);
  const items = rows.slice(0, request.limit);
  const last = items.at(-1);
  return { items: items.map(toItem), next_cursor: rows.length > request.limit && last ? encodeCursor(last) : null };
}
