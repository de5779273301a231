import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { inWords } from './field-messages.ts';

/**
 * A react-hook-form resolver that validates with a contract schema. The form's values are first
 * turned into the request (`toRequest`: drop empty optional fields, parse numbers); the request as
 * sent is the schema's input, not its output, so server-side transforms (session_data parsed to an
 * object) happen once, on the server. Each issue lands on the field named by its first path key.
 */
export function contractResolver<TForm extends FieldValues, S extends z.ZodType>(
  schema: S,
  toRequest: (values: TForm) => z.input<S>,
): Resolver<TForm, unknown, z.input<S>> {
  return (values) => {
    const request = toRequest(values);
    const parsed = schema.safeParse(request);
    if (parsed.success) return { values: request, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.length ? String(issue.path[0]) : 'root';
      const field = issue.code === 'unrecognized_keys' ? 'root' : key;
      errors[field] ??= {
        type: 'validate',
        message: field === 'root' ? issue.message : inWords(issue.path, issue.message),
      };
    }
    return { values: {}, errors: errors as FieldErrors<TForm> };
  };
}
