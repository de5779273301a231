import type { z } from 'zod';

/**
 * A column that holds JSON text, read and written in one place. Reading checks the value against
 * the schema it was written from, so a row that does not hold one fails here, naming the column,
 * rather than as a wrong value further on; and it fails as the server's fault (a 500, logged),
 * never as a 400 or 422 that would blame the caller.
 */
export interface JsonColumn<T> {
  /** The stored value; throws StoredValueError when the text does not hold one. */
  read(text: string): T;
  /** The stored value, or `fallback` when the text does not hold one. */
  readOr<F>(text: string, fallback: F): T | F;
  write(value: T): string;
}

/** A column holds what the store should never have written. */
export class StoredValueError extends Error {}

/** The codec of `column` (table.column, for the error), whose values are `schema`'s. */
export function jsonColumn<S extends z.ZodType>(column: string, schema: S): JsonColumn<z.output<S>> {
  /** The value, or why the text holds none. */
  function decode(text: string): { value: z.output<S> } | { why: string } {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { why: 'it is not JSON' };
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return { value: parsed.data };
    const issue = parsed.error.issues[0];
    return {
      why: issue
        ? `${issue.path.map(String).join('.') || '(value)'}: ${issue.message}`
        : 'it does not match its schema',
    };
  }
  return {
    read(text) {
      const decoded = decode(text);
      if ('why' in decoded) throw new StoredValueError(`${column} holds a value that cannot be read: ${decoded.why}`);
      return decoded.value;
    },
    readOr(text, fallback) {
      const decoded = decode(text);
      return 'why' in decoded ? fallback : decoded.value;
    },
    write: (value) => JSON.stringify(value),
  };
}
