import { Invalid } from '../domain/errors.ts';

/** Where a page of a newest-first list ends: the (created_at, id) of its last row. */
export interface PageKey {
  created_at: string;
  id: string;
}

/** The opaque next_cursor handed to clients for lists ordered by (created_at, id). */
export const encodeCursor = (key: PageKey) => Buffer.from(JSON.stringify([key.created_at, key.id])).toString('base64url');

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
