import { randomUUID } from 'node:crypto';
import { nowIso, type Sql } from './db.ts';

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
export function apiKeysRepo(sql: Sql) {
  return {
    async insert(name: string, prefix: string, hash: string): Promise<ApiKeyRow> {
      const row: ApiKeyRow = {
        id: randomUUID(),
        name,
        prefix,
        hash,
        created_at: nowIso(),
        last_used_at: null,
        revoked_at: null,
      };
      await sql.run(
        'INSERT INTO api_keys (id, name, prefix, hash, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash) DO UPDATE SET revoked_at = NULL',
        [row.id, name, prefix, hash, row.created_at],
      );
      return row;
    },
    /**
     * insert, unless an active key already has this name: null then. On Postgres the active rows
     * are locked first (there is always one: the last cannot be revoked), so two creates of one
     * name at once are taken one after the other and the second finds the first.
     */
    insertUniquelyNamed(name: string, prefix: string, hash: string): Promise<ApiKeyRow | null> {
      return sql.tx(async (tx) => {
        if (tx.engine === 'postgres') await tx.all('SELECT id FROM api_keys WHERE revoked_at IS NULL FOR UPDATE');
        if (await tx.get('SELECT id FROM api_keys WHERE revoked_at IS NULL AND name = ?', [name])) return null;
        return apiKeysRepo(tx).insert(name, prefix, hash);
      });
    },
    active: () => sql.all<Pick<ApiKeyRow, 'id' | 'hash'>>('SELECT id, hash FROM api_keys WHERE revoked_at IS NULL'),
    list: () => sql.all<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at'),
    countActive: async () =>
      (await sql.get<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL'))!.n,
    revoke: (idOrPrefix: string) =>
      sql.run('UPDATE api_keys SET revoked_at = ? WHERE revoked_at IS NULL AND (id = ? OR prefix = ?)', [
        nowIso(),
        idOrPrefix,
        idOrPrefix,
      ]),
    /**
     * Revoke the active key `id`, unless it is the last active one (no one could call the API after):
     * 'none' when no active key has that id. On Postgres the active rows are locked first, so two
     * revokes at once cannot take the last two keys.
     */
    revokeUnlessLast: (id: string) =>
      sql.tx(async (tx): Promise<'revoked' | 'last' | 'none'> => {
        const active = await tx.all<{ id: string }>(
          `SELECT id FROM api_keys WHERE revoked_at IS NULL${tx.engine === 'postgres' ? ' FOR UPDATE' : ''}`,
        );
        if (!active.some((k) => k.id === id)) return 'none';
        if (active.length <= 1) return 'last';
        await tx.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [nowIso(), id]);
        return 'revoked';
      }),
    get: (id: string) => sql.get<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]),
    touch: (id: string) => sql.run('UPDATE api_keys SET last_used_at = ? WHERE id = ?', [nowIso(), id]),
  };
}
export type ApiKeysRepo = ReturnType<typeof apiKeysRepo>;
