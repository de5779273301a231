/**
 * The one seam between the repositories and a database engine. Repositories write portable SQL
 * with `?` placeholders (SQLite and Postgres both take `ON CONFLICT … DO UPDATE`, `RETURNING` and
 * `excluded.`); each engine turns that into its own calls. Everything is async so that Postgres,
 * a network peer, fits the same interface as SQLite, which answers in the same tick.
 */
export type SqlValue = string | number | Buffer | null;

export interface Sql {
  readonly engine: 'sqlite' | 'postgres';
  all<T>(text: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(text: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** A statement that returns no rows; resolves to how many rows it changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
  /** `fn` inside one transaction, committed when it resolves and rolled back when it throws. */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A UNIQUE constraint refused the row, in either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

export const nowIso = () => new Date().toISOString();
