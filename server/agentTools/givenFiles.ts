import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isSafeFileName } from '../artifacts/safeNames.ts';
import type { ToolKit } from './kit.ts';
import { ToolError } from './registry.ts';
import { writeAsSessionUser } from './sessionFiles.ts';

/** Bytes of downloaded files one call may hand back to the page (read into memory to be copied). */
const PATHS_MAX_BYTES = 50 * 1024 * 1024;

/** What a tool may give the page as files: names the session downloaded, and bytes the caller sent. */
export interface GivenFiles {
  paths?: string[] | undefined;
  files?: { name: string; content_base64: string }[] | undefined;
}

/**
 * The files to give a page, written into a new folder of the session's uploads (the only place,
 * with its downloads, the session's CDP policy lets a file reach a page from), as the session's
 * own user (sessionFiles.ts), so names never collide and a link the session planted leads the
 * write nowhere. `paths` are names of the session's kept downloads, as downloads_list lists them:
 * the MCP server is not the caller's machine, so a path of the caller's means nothing here, and a
 * host path is never read. Kept downloads are in the service's own folder, read by their listed name.
 */
export async function writeGivenFiles(kit: ToolKit, sessionId: string, given: GivenFiles): Promise<string[]> {
  const session = kit.deps.sessions.get(sessionId);
  if (!session) throw new ToolError(`Session ${sessionId} is not live on this server`);
  const out: { name: string; base64: string }[] = [];
  let read = 0;
  for (const name of given.paths ?? []) {
    const file = isSafeFileName(name) ? kit.deps.keptFile(sessionId, name) : undefined;
    if (!file)
      throw new ToolError(
        `paths: ${JSON.stringify(name.slice(0, 100))} is not a file this session downloaded (downloads_list lists them by name). Files of your own machine go as files, in base64`,
      );
    const bytes = fs.readFileSync(file);
    read += bytes.length;
    if (read > PATHS_MAX_BYTES)
      throw new ToolError(`paths: at most ${PATHS_MAX_BYTES / 1024 / 1024} MB of downloaded files per call`);
    out.push({ name, base64: bytes.toString('base64') });
  }
  for (const f of given.files ?? []) {
    if (!isSafeFileName(f.name))
      throw new ToolError(`files: ${JSON.stringify(f.name.slice(0, 100))} is not a file name this server keeps`);
    out.push({ name: f.name, base64: f.content_base64 });
  }
  const names = new Set(out.map((f) => f.name.toLowerCase()));
  if (names.size !== out.length) throw new ToolError('Two files have the same name: give each file once');
  return writeAsSessionUser(session.user, path.join(session.folders.uploads, `agent-${randomUUID()}`), out);
}
