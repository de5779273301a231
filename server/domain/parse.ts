import type { z } from 'zod';
import type { Issue } from '../../contract/errors.ts';
import { Invalid } from './errors.ts';

/** A zod error as one issue per bad field, on the dotted path the caller sent. */
export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((i) => {
    const p = i.path.map(String);
    if (i.code === 'unrecognized_keys') {
      return {
        path: [...p, ...i.keys].join('.'),
        message: `unknown field${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}`,
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
