import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionUser } from './sessionUsers.ts';

/** One session's own folders, all inside its root, which only its user can enter. */
export interface SessionDirs {
  root: string;
  home: string;
  tmp: string;
  profile: string;
  downloads: string;
  uploads: string;
  /** x11vnc's socket; made the service's own (0600) once it exists. */
  vncSocket: string;
  /** The display's cookie, readable by the session's user only. */
  xauthority: string;
}

/**
 * Where the sessions of a data folder live: outside DATA_DIR, which is 0700 and the service's alone,
 * in a folder of the service's that others may pass through (0711) but not list. Short, because a
 * UNIX socket path is limited to 107 bytes.
 */
export function sessionsRootOf(dataDir: string): string {
  return path.join(os.tmpdir(), `bd-${shortHash(dataDir)}`);
}

/** A short, stable name for `s` (UNIX socket paths are limited to 107 bytes). */
export const shortHash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 12);

/**
 * Chromium puts its singleton socket under TMPDIR (org.chromium.Chromium.XXXXXX/SingletonSocket)
 * and dies if that path is over 107 bytes: hence the short names.
 */
export function sessionRootOf(dataDir: string, id: string): string {
  return path.join(sessionsRootOf(dataDir), shortHash(id));
}

export function sessionDirsOf(dataDir: string, id: string): SessionDirs {
  const root = sessionRootOf(dataDir, id);
  return {
    root,
    home: path.join(root, 'home'),
    tmp: path.join(root, 't'),
    profile: path.join(root, 'profile'),
    downloads: path.join(root, 'downloads'),
    uploads: path.join(root, 'uploads'),
    vncSocket: path.join(root, 'run', 'vnc.sock'),
    xauthority: path.join(root, 'run', 'xauth'),
  };
}

/** A folder of ours, not something another local user planted at that path. */
function ownFolder(dir: string, mode: number): void {
  fs.mkdirSync(dir, { recursive: true, mode });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || st.uid !== process.getuid!())
    throw new Error(`${dir} is not a folder owned by this service`);
  fs.chmodSync(dir, mode);
}

/** Make the session's folders, owned by its user (0700), so no other session's user can enter. */
export function createSessionDirs(dataDir: string, dirs: SessionDirs, user: SessionUser | null): void {
  ownFolder(sessionsRootOf(dataDir), 0o711);
  fs.mkdirSync(dirs.root, { mode: 0o700 }); // fails if it exists: ids are never reused
  for (const dir of [dirs.home, dirs.tmp, dirs.profile, dirs.downloads, dirs.uploads, path.dirname(dirs.vncSocket)])
    fs.mkdirSync(dir, { mode: 0o700 });
  if (!user) return;
  for (const dir of [dirs.root, dirs.home, dirs.tmp, dirs.profile, dirs.downloads, dirs.uploads])
    fs.chownSync(dir, user.uid, user.gid);
  // run/: the service's, sticky, and only enterable and writable by the session's group, so x11vnc
  // can make its socket there and the session cannot rename or remove it once it is the service's.
  const run = path.dirname(dirs.vncSocket);
  fs.chownSync(run, process.getuid!(), user.gid);
  fs.chmodSync(run, 0o1730);
}

/** Hand a file the service wrote (an upload) to the session's user. */
export function giveTo(file: string, user: SessionUser | null): void {
  if (user) fs.chownSync(file, user.uid, user.gid);
}

/**
 * Moved out of the way at once (a rename) and deleted behind it, so ending a session does not wait
 * for thousands of small profile files.
 */
export async function removeSessionDirs(dataDir: string, dirs: SessionDirs): Promise<void> {
  const trash = path.join(sessionsRootOf(dataDir), `.trash-${path.basename(dirs.root)}-${Date.now()}`);
  try {
    await fs.promises.rename(dirs.root, trash);
  } catch {
    await fs.promises.rm(dirs.root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    return;
  }
  void fs.promises.rm(trash, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}

/** On start: nothing of a previous process's sessions is kept. */
export async function removeAllSessionDirs(dataDir: string): Promise<void> {
  await fs.promises.rm(sessionsRootOf(dataDir), { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
}
