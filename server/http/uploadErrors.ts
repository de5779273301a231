import { isDomainError, Malformed, TooLarge } from '../domain/errors.ts';

/** What busboy says about a body it cannot read, in words for the caller. */
const SYNTAX: [RegExp, string][] = [
  [/Boundary not found/, 'the Content-Type has no boundary parameter'],
  [/needle cannot (be an empty|have a length bigger)/, 'the boundary parameter must be 1 to 70 characters'],
  [
    /Unexpected end of multipart data|terminated early/,
    'the body ends before its closing boundary (truncated, or the boundary does not match the one in Content-Type)',
  ],
];

/**
 * The domain error for an error met while reading a run_workflow multipart body, or the error itself
 * when it is the server's own (a file that cannot be written: those carry a syscall) or already a
 * domain error. Whatever else the multipart parser throws is Malformed (a 400, never a 500).
 */
export function uploadError(err: unknown, limits: { maxFiles: number; maxFileBytes: number }): unknown {
  if (isDomainError(err) || !(err instanceof Error)) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'FST_FILES_LIMIT') return new TooLarge(`Too many files: at most ${limits.maxFiles} (MAX_FILES)`);
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new TooLarge(`A file is larger than the ${limits.maxFileBytes}-byte limit (MAX_FILE_BYTES)`);
  if (code?.startsWith('FST_') || (err as NodeJS.ErrnoException).syscall) return err; // mapped by the error handler, or a 500
  const why = SYNTAX.find(([re]) => re.test(err.message))?.[1] ?? 'it is not well-formed multipart/form-data';
  return new Malformed(`Malformed multipart body: ${why}`);
}
