import path from 'node:path';

/**
 * Where one session's artifacts live (its recording, the files its pages downloaded, its storage
 * state): inside DATA_DIR, which is 0700 and the service's alone, so nothing a session runs can
 * reach them. `sessionId` is a UUID the service made, never a name a client chose.
 */
export function artifactsDirOf(dataDir: string, sessionId: string): string {
  return path.join(dataDir, 'artifacts', sessionId);
}
