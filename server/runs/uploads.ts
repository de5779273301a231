/**
 * What a run_workflow request hands a run, whatever its encoding (server/http/runUploads.ts reads
 * it), and the rule for the names of the files it brings.
 */
export interface RunForm {
  /** Text fields by name (each at most once). */
  fields: Record<string, string>;
  /** Uploaded file names (each written to dir/<name>). */
  files: string[];
}

/** Longest file name the file system takes (NAME_MAX), in bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/** Why `name` (already without folders) cannot be a file name on disk, or null when it can. */
export function badFileName(name: string): string | null {
  if (!name || name === '.' || name === '..') return 'each file needs a file name';
  if (name.includes('\0')) return 'a file name must not contain a NUL byte';
  if (Buffer.byteLength(name) > MAX_FILE_NAME_BYTES)
    return `a file name must be at most ${MAX_FILE_NAME_BYTES} bytes (UTF-8)`;
  return null;
}
