import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { inWords } from '../lib/field-messages.ts';
import { ApiError } from './errors.ts';

/**
 * Put a 422's issues onto the form fields they name, and a 409's (a name another key or workflow
 * has). An issue whose path is not a field of the form (or a nested path like variables.email)
 * lands on the nearest named field, else on root. Returns true when the error had issues.
 */
export function applyIssues<T extends FieldValues>(
  err: unknown,
  fields: readonly string[],
  setError: UseFormSetError<T>,
): boolean {
  if (!(err instanceof ApiError) || (err.status !== 422 && err.status !== 409) || err.issues.length === 0) return false;
  const unplaced: string[] = [];
  for (const issue of err.issues) {
    const parts = issue.path.split('.');
    let placed = false;
    for (let n = parts.length; n > 0; n--) {
      const candidate = parts.slice(0, n).join('.');
      if (fields.includes(candidate)) {
        // A sentence about the field (or the part of it the issue names, e.g. variables.email).
        const detail = inWords(issue.path, issue.message);
        setError(candidate as Path<T>, { type: 'server', message: detail });
        placed = true;
        break;
      }
    }
    if (!placed) unplaced.push(`${issue.path}: ${issue.message}`);
  }
  if (unplaced.length) setError('root.server' as Path<T>, { type: 'server', message: unplaced.join('; ') });
  return true;
}
