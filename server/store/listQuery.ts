import { Invalid } from '../domain/errors.ts';
import type { SortKey } from '../domain/pages.ts';
import type { Sql, SqlValue } from './sql.ts';

/** A list's search, start-time range, order and place, as the repositories take it. */
export interface ListQuery<F extends string> {
  /** Each must appear in one of the searched columns (the id: at its start). */
  words: readonly string[];
  /** Start times from (included) and to (excluded), as ISO strings in UTC like the stored ones. */
  from?: string;
  to?: string;
  sort: F;
  order: 'asc' | 'desc';
  /** The last row of the previous page, in this order. */
  before?: SortKey;
  limit: number;
}

/** Where a list's rows keep what it searches and sorts by (SQL expressions over its FROM). */
export interface ListColumns<F extends string> {
  id: string;
  createdAt: string;
  /** Searched from its start (an id). */
  prefixSearched: string;
  /** Searched anywhere in the text; null ones are skipped. */
  searched: readonly string[];
  /** Each sort field's expression, and whether it is a number (a cursor's value must be one too). */
  sortBy: Record<F, string | { number: string }>;
}

/** A LIKE pattern matching `word` as typed: its %, _ and the escape character are literal. */
const literal = (word: string) => word.replace(/[!%_]/g, (c) => `!${c}`);
/** Only ASCII letters change case: SQLite's lower() folds no others, so both engines agree. */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** From start to end in whole milliseconds (null while it has no end), in the engine's own date functions. */
export function durationMs(sql: Sql, start: string, end: string): string {
  return sql.engine === 'postgres'
    ? `CAST(round(EXTRACT(EPOCH FROM (CAST(${end} AS timestamptz) - CAST(${start} AS timestamptz))) * 1000) AS BIGINT)`
    : `CAST(round((julianday(${end}) - julianday(${start})) * 86400000) AS INTEGER)`;
}

/**
 * The WHERE conditions, ORDER BY and sort value of one page of a list (with its `equal` filters): rows with no value sort last
 * either way, ties go newest first, and `before` continues after the previous page's last row in
 * that same order (keyset paging, so rows added meanwhile neither repeat nor hide one).
 */
export function listClauses<F extends string>(
  columns: ListColumns<F>,
  query: ListQuery<F>,
  /** The list's own filters: each column given a value must equal it. */
  equal: Record<string, SqlValue | undefined> = {},
) {
  const where: string[] = [];
  const args: SqlValue[] = [];
  for (const [column, v] of Object.entries(equal)) {
    if (v === undefined) continue;
    where.push(`${column} = ?`);
    args.push(v);
  }
  for (const word of query.words) {
    const pattern = literal(asciiLower(word));
    where.push(
      `(${columns.prefixSearched} LIKE ? ESCAPE '!' OR ${columns.searched
        .map((c) => `lower(${c}) LIKE ? ESCAPE '!'`)
        .join(' OR ')})`,
    );
    args.push(`${pattern}%`, ...columns.searched.map(() => `%${pattern}%`));
  }
  if (query.from) {
    where.push(`${columns.createdAt} >= ?`);
    args.push(query.from);
  }
  if (query.to) {
    where.push(`${columns.createdAt} < ?`);
    args.push(query.to);
  }
  const sortBy = columns.sortBy[query.sort];
  const value = typeof sortBy === 'string' ? sortBy : sortBy.number;
  const newerFirst = `(${columns.createdAt} < ? OR (${columns.createdAt} = ? AND ${columns.id} < ?))`;
  const { before } = query;
  // A cursor's value goes in as a parameter; one of the wrong type would make Postgres fail the cast.
  if (before && before.value !== null && typeof before.value !== (typeof sortBy === 'string' ? 'string' : 'number'))
    throw new Invalid([{ path: 'cursor', message: 'not a cursor from a previous page' }]);
  if (before) {
    const tie = [before.created_at, before.created_at, before.id];
    if (before.value === null) {
      where.push(`(${value} IS NULL AND ${newerFirst})`);
      args.push(...tie);
    } else {
      where.push(
        `(${value} ${query.order === 'asc' ? '>' : '<'} ? OR (${value} = ? AND ${newerFirst}) OR ${value} IS NULL)`,
      );
      args.push(before.value, before.value, ...tie);
    }
  }
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  return {
    /** Select it `AS sort_value`: the page's cursor is made of it. */
    sortValue: value,
    where: where.length ? `WHERE ${where.join(' AND ')}` : '',
    args,
    orderBy: `ORDER BY (${value} IS NULL), ${value} ${direction}, ${columns.createdAt} DESC, ${columns.id} DESC`,
  };
}
