import fs from 'node:fs';
import path from 'node:path';
import type { LiveSession } from '../sessions/types.ts';
import { giveTo } from '../sessions/isolation/sessionDirs.ts';

/**
 * Copy a run's uploaded files (kept in DATA_DIR, the service's alone) into the session's own uploads
 * folder, owned by the session's user, and return that folder: the only place from which the
 * session's policy lets a file be given to the page.
 */
export function handUploads(runDir: string, session: Pick<LiveSession, 'folders' | 'user'>): string {
  const target = session.folders.uploads;
  let names: string[];
  try {
    names = fs.readdirSync(runDir);
  } catch {
    return target; // no files were uploaded
  }
  for (const name of names) {
    const to = path.join(target, name);
    fs.copyFileSync(path.join(runDir, name), to, fs.constants.COPYFILE_EXCL);
    giveTo(to, session.user);
  }
  return target;
}
