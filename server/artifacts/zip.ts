import type { Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * A zip of kept files, streamed as it is built (nothing is held in memory or written to disk).
 * Entry names are the kept names: single safe components (safeNames.ts), so no entry has a folder,
 * a `..` or an absolute path; yazl refuses such names anyway.
 */
export function zipOf(files: { path: string; name: string; mtime: Date }[]): Readable {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addFile(f.path, f.name, { mtime: f.mtime, mode: 0o100644 });
  zip.end();
  return zip.outputStream as Readable;
}
