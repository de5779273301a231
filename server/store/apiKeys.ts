import { randomUUID } from 'node:crypto';
import { nowIso, type Db } from './db.ts';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The api_keys table: hashes only, never a key. */
export function apiKeysRepo(db: Db) {
  const activeHashes = db.prepare<[], Pick<ApiKeyRow, 'id' | 'hash'>>('SELECT id, hash FROM api_keys WHERE revoked_at IS NULL');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  return {
    insert(name: string, prefix: string, hash: string): ApiKeyRow {
      const row: ApiKeyRow = { id: randomUUID(), name, prefix, hash, created_at: nowIso(), last_used_at: null, revoked_at: null };
      db.prepare(
        'INSERT INTO api_keys (id, name, prefix, hash, created_at) VALUES (@id, @name, @prefix, @hash, @created_at) ON CONFLICT(hash) DO UPDATE SET revoked_at = NULL',
      ).run(row);
      return row;
    },
    active: () => activeHashes.all(),
    list: () => db.prepare<[], ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at').all(),
    countActive: () => (db.prepare('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL').get() as { n: number }).n,
    revoke: (idOrPrefix: string) =>
      db
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND (id = ? OR prefix = ?)')
        .run(nowIso(), idOrPrefix, idOrPrefix).changes,
    touch: (id: string) => touch.run(nowIso(), id),
  };
}
export type ApiKeysRepo = ReturnType<typeof apiKeysRepo>;
