import { searchWords } from '../../contract/listSearch.ts';
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

/** Where a page of a list in any order ends: its last row's sort value, with (created_at, id) for ties. */
export interface SortKey extends PageKey {
  sort: string;
  order: 'asc' | 'desc';
  value: string | number | null;
}

/** A searched, sorted list's request, as the routes hand it on (the contract's searchablePageQuery). */
export interface SortedPageRequest<F extends string> {
  limit: number;
  cursor?: string;
  q?: string;
  from?: string;
  to?: string;
  sort: F;
  order: 'asc' | 'desc';
}

/** The search words, and the time range in UTC as start times are stored (`2026-11-01T00:00:00.000Z`), so text compares as time. */
export function searchOf(request: Pick<SortedPageRequest<string>, 'q' | 'from' | 'to'>) {
  const utc = (iso: string | undefined) => (iso === undefined ? undefined : new Date(iso).toISOString());
  return { words: searchWords(request.q), from: utc(request.from), to: utc(request.to) };
}

/** The default order (newest first) keeps encodeCursor's shape, so a cursor from before sorting existed still works. */
function encodeSortKey(key: SortKey): string {
  if (key.sort === 'created_at' && key.order === 'desc') return encodeCursor(key);
  return Buffer.from(JSON.stringify([key.created_at, key.id, key.sort, key.order, key.value])).toString('base64url');
}

/** Reads back a cursor of encodeSortKey(); one made for another order is refused, since it would skip or repeat rows. */
function decodeSortKey(cursor: string, sort: string, order: 'asc' | 'desc'): SortKey {
  let key: SortKey | undefined;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const [created_at, id, s, o, value] = parts;
    if (typeof created_at === 'string' && typeof id === 'string') {
      if (parts.length === 2) key = { created_at, id, sort: 'created_at', order: 'desc', value: created_at };
      else if (
        parts.length === 5 &&
        typeof s === 'string' &&
        (o === 'asc' || o === 'desc') &&
        (value === null || typeof value === 'string' || typeof value === 'number')
      )
        key = { created_at, id, sort: s, order: o, value };
    }
  } catch {
    // fall through to the 422
  }
  if (!key) throw new Invalid([{ path: 'cursor', message: 'not a cursor from a previous page' }]);
  if (key.sort !== sort || key.order !== order)
    throw new Invalid([
      {
        path: 'cursor',
        message: `a cursor of the list sorted by ${key.sort} ${key.order}: ask with that sort and order`,
      },
    ]);
  return key;
}

/**
 * pageOf for a list in the order `request` asks: each row carries its `sort_value`, of which the
 * next cursor is made.
 */
export async function sortedPageOf<Row extends PageKey & { sort_value: string | number | null }, T>(
  request: SortedPageRequest<string>,
  fetch: (limit: number, before: SortKey | undefined) => Promise<Row[]>,
  toItem: (row: Row) => T,
): Promise<Page<T>> {
  const { sort, order } = request;
  const rows = await fetch(request.limit + 1, request.cursor ? decodeSortKey(request.cursor, sort, order) : undefined);
  const items = rows.slice(0, request.limit);
  const last = items.at(-1);
  return {
    items: items.map(toItem),
    next_cursor:
      rows.length > request.limit && last
        ? encodeSortKey({ created_at: last.created_at, id: last.id, sort, order, value: last.sort_value })
        : null,
  };
}
