import type { z } from 'zod';
import type { Issue } from '../../contract/errors.ts';
import { Invalid } from './errors.ts';

/** The longest unknown field name an error repeats: a caller's key is theirs, of any length (the fuzzer sent one of 100 KB). */
const KEY_SHOWN_MAX = 100;
const shownKey = (key: string) => (key.length > KEY_SHOWN_MAX ? `${key.slice(0, KEY_SHOWN_MAX - 1)}…` : key);

/** A zod error as one issue per bad field, on the dotted path the caller sent. */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => {
    const p = i.path.map(String);
    if (i.code === 'unrecognized_keys') {
      const keys = i.keys.map(shownKey);
      return {
        path: [...p, ...keys].join('.'),
        message: `unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`,
      };
    }
    return { path: p.join('.') || '(body)', message: i.message };
  });
}

/** Parse with a contract schema; a failure is Invalid, naming each bad field. */
export function parseOrInvalid<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw new Invalid(issuesOf(r.error));
  return r.data;
}
