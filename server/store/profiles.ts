import { isUniqueViolation, nowIso, type Sql } from './sql.ts';

export type ProfileKind = 'browser' | 'storage_state';
export type VersionSource = 'import' | 'session' | 'restore';

export interface ProfileRow {
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface VersionRow {
  profile: string;
  version: number;
  blob_id: string;
  kind: ProfileKind;
  size: number;
  source: VersionSource;
  session_id: string | null;
  restored_from: number | null;
  created_at: string;
}

export interface UseRow {
  profile: string;
  session_id: string;
  persist: number;
  since: string;
}

/**
 * Uses whose session is not starting or live (its node died, or its end never got here), taken
 * over STALE_AFTER_MS ago: a use is taken just before its session's record is written, so a fresh
 * one without a record is a session about to start. Minutes, not seconds: nodes' clocks differ.
 */
const STALE_USES = `DELETE FROM profile_uses WHERE profile = ? AND since < ?
  AND session_id NOT IN (SELECT id FROM sessions WHERE state IN ('starting', 'live'))`;
const STALE_AFTER_MS = 5 * 60_000;
const staleBefore = () => new Date(Date.now() - STALE_AFTER_MS).toISOString();

/**
 * The profiles tables: names, versions (each a blob of sealed chunks, written before its row),
 * and the sessions using them. It never sees a profile's plaintext.
 */
export function profilesRepo(sql: Sql) {
  const versionsOf = (name: string) =>
    sql.all<VersionRow>('SELECT * FROM profile_versions WHERE profile = ? ORDER BY version DESC', [name]);
  return {
    /** False when the name is taken. */
    insert: async (name: string): Promise<boolean> =>
      (await sql.run('INSERT INTO profiles (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [
        name,
        nowIso(),
      ])) > 0,
    get: (name: string) => sql.get<ProfileRow>('SELECT * FROM profiles WHERE name = ?', [name]),
    list: () => sql.all<ProfileRow>('SELECT * FROM profiles ORDER BY name'),
    versionsOf,
    latest: (name: string) =>
      sql.get<VersionRow>('SELECT * FROM profile_versions WHERE profile = ? ORDER BY version DESC LIMIT 1', [name]),
    version: (name: string, version: number) =>
      sql.get<VersionRow>('SELECT * FROM profile_versions WHERE profile = ? AND version = ?', [name, version]),
    /** Uses of live sessions (stale ones are not shown, and are cleared by the next take). */
    usesOf: (name: string) =>
      sql.all<UseRow>(
        `SELECT u.* FROM profile_uses u JOIN sessions s ON s.id = u.session_id
         WHERE u.profile = ? AND s.state IN ('starting', 'live') ORDER BY u.since`,
        [name],
      ),

    /**
     * Record that `sessionId` uses the profile; with `persist`, only if no other live session
     * persists to it. Returns the session that holds the profile when that refused it.
     */
    async take(name: string, sessionId: string, persist: boolean): Promise<{ heldBy?: string }> {
      await sql.run(STALE_USES, [name, staleBefore()]);
      try {
        await sql.run('INSERT INTO profile_uses (profile, session_id, persist, since) VALUES (?, ?, ?, ?)', [
          name,
          sessionId,
          persist ? 1 : 0,
          nowIso(),
        ]);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const holder = await sql.get<{ session_id: string }>(
          'SELECT session_id FROM profile_uses WHERE profile = ? AND persist = 1',
          [name],
        );
        return { heldBy: holder?.session_id ?? 'another session' };
      }
      await sql.run('UPDATE profiles SET last_used_at = ? WHERE name = ?', [nowIso(), name]);
      return {};
    },
    release: (name: string, sessionId: string) =>
      sql.run('DELETE FROM profile_uses WHERE profile = ? AND session_id = ?', [name, sessionId]),

    /** One sealed chunk of a blob being written (the version row comes after the last). */
    addChunk: (blobId: string, name: string, seq: number, data: Buffer) =>
      sql.run('INSERT INTO profile_chunks (blob_id, profile, seq, data) VALUES (?, ?, ?, ?)', [
        blobId,
        name,
        seq,
        data,
      ]),
    /** One chunk, read on its own: a blob is never loaded whole. */
    chunk: (blobId: string, seq: number) =>
      sql.get<{ seq: number; data: Buffer }>('SELECT seq, data FROM profile_chunks WHERE blob_id = ? AND seq = ?', [
        blobId,
        seq,
      ]),
    /** Drop a blob whose version was never written (a save that failed). */
    dropBlob: (blobId: string) => sql.run('DELETE FROM profile_chunks WHERE blob_id = ?', [blobId]),

    /**
     * The blob becomes the profile's next version; versions beyond `keep` and chunks no version
     * names (older versions', and saves cut short by a crash) go. False when the profile was
     * deleted meanwhile (the blob goes too).
     */
    async addVersion(row: Omit<VersionRow, 'version' | 'created_at'>, keep: number): Promise<VersionRow | undefined> {
      return sql.tx(async (tx) => {
        if (!(await tx.get('SELECT 1 AS one FROM profiles WHERE name = ?', [row.profile]))) {
          await tx.run('DELETE FROM profile_chunks WHERE blob_id = ?', [row.blob_id]);
          return undefined;
        }
        const top = await tx.get<{ v: number | null }>(
          'SELECT max(version) AS v FROM profile_versions WHERE profile = ?',
          [row.profile],
        );
        const version = (top?.v ?? 0) + 1;
        const created_at = nowIso();
        await tx.run(
          `INSERT INTO profile_versions (profile, version, blob_id, kind, size, source, session_id, restored_from, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            row.profile,
            version,
            row.blob_id,
            row.kind,
            row.size,
            row.source,
            row.session_id,
            row.restored_from,
            created_at,
          ],
        );
        await tx.run('DELETE FROM profile_versions WHERE profile = ? AND version <= ?', [row.profile, version - keep]);
        await tx.run(
          `DELETE FROM profile_chunks WHERE profile = ?
           AND blob_id NOT IN (SELECT blob_id FROM profile_versions WHERE profile = ?)
           AND blob_id <> ?`,
          [row.profile, row.profile, row.blob_id],
        );
        return { ...row, version, created_at };
      });
    },

    /** Delete the profile, its versions and chunks, unless a live session uses it: then who does. */
    async delete(name: string): Promise<{ deleted: boolean; usedBy?: string }> {
      return sql.tx(async (tx) => {
        await tx.run(STALE_USES, [name, staleBefore()]);
        const user = await tx.get<{ session_id: string }>('SELECT session_id FROM profile_uses WHERE profile = ?', [
          name,
        ]);
        if (user) return { deleted: false, usedBy: user.session_id };
        const gone = await tx.run('DELETE FROM profiles WHERE name = ?', [name]);
        await tx.run('DELETE FROM profile_versions WHERE profile = ?', [name]);
        await tx.run('DELETE FROM profile_chunks WHERE profile = ?', [name]);
        return { deleted: gone > 0 };
      });
    },
  };
}

export type ProfilesRepo = ReturnType<typeof profilesRepo>;
