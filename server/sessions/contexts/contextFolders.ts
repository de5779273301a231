import fs from 'node:fs';
import path from 'node:path';
import type { SessionFolders } from '../cdp/policy.ts';
import { shortHash } from '../isolation/sessionDirs.ts';
import type { SessionUser } from '../isolation/sessionUsers.ts';

/**
 * A context session's own uploads and downloads folders, inside its shared browser's root (which
 * only the browser's user can enter). The browser writes each context's downloads into that
 * session's folder (Browser.setDownloadBehavior is bound to the context), and the CDP policy lets a
 * session name only its own folders' files.
 */
export function contextFoldersOf(browserRoot: string, browserContextId: string): SessionFolders {
  const dir = path.join(browserRoot, 'c', shortHash(browserContextId));
  return { uploads: path.join(dir, 'uploads'), downloads: path.join(dir, 'downloads') };
}

/** Make them, owned by the browser's user (0700). */
export function makeContextFolders(folders: SessionFolders, user: SessionUser | null): void {
  const dir = path.dirname(folders.uploads);
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  fs.mkdirSync(dir, { mode: 0o700 }); // fails if it exists: context ids are never reused
  for (const d of [folders.uploads, folders.downloads]) fs.mkdirSync(d, { mode: 0o700 });
  if (user)
    for (const d of [path.dirname(dir), dir, folders.uploads, folders.downloads]) fs.chownSync(d, user.uid, user.gid);
}

/** Gone with what the session left in them (its kept files were copied out at its end). */
export function removeContextFolders(folders: SessionFolders): void {
  fs.rmSync(path.dirname(folders.uploads), { recursive: true, force: true, maxRetries: 3 });
}
