import { randomUUID } from 'node:crypto';
import { nowIso, type Sql } from './db.ts';

export interface CredentialRow {
  id: string;
  name: string;
  /** iv | tag | ciphertext (server/secrets/credentialCipher.ts). */
  secret: Buffer;
  created_at: string;
  updated_at: string;
}

/** What may leave the store for a list: everything but the secret. */
export type CredentialMeta = Omit<CredentialRow, 'secret'>;

/** The credentials table. It holds sealed secrets only; sealing and opening is the caller's. */
export function credentialsRepo(sql: Sql) {
  return {
    list: () => sql.all<CredentialMeta>('SELECT id, name, created_at, updated_at FROM credentials ORDER BY name'),
    /** Insert, or replace the secret of the credential of that name (its id and created_at stay). */
    async put(name: string, secret: Buffer): Promise<{ row: CredentialMeta; replaced: boolean }> {
      const id = randomUUID();
      const now = nowIso();
      // One statement: a concurrent store of the same name replaces, never fails on the UNIQUE name.
      const row = (await sql.get<CredentialMeta>(
        `INSERT INTO credentials (id, name, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at
         RETURNING id, name, created_at, updated_at`,
        [id, name, secret, now, now],
      ))!;
      return { row, replaced: row.id !== id };
    },
    secretOf: async (name: string): Promise<Buffer | undefined> =>
      (await sql.get<Pick<CredentialRow, 'secret'>>('SELECT secret FROM credentials WHERE name = ?', [name]))?.secret,
    has: async (name: string): Promise<boolean> => (await sql.get('SELECT 1 AS one FROM credentials WHERE name = ?', [name])) !== undefined,
    /** Every name with its sealed secret (the start-up check that they still open). */
    sealedAll: () => sql.all<Pick<CredentialRow, 'name' | 'secret'>>('SELECT name, secret FROM credentials'),
    /** True when there was a credential of that name. */
    delete: async (name: string): Promise<boolean> => (await sql.run('DELETE FROM credentials WHERE name = ?', [name])) > 0,
  };
}

export type CredentialsRepo = ReturnType<typeof credentialsRepo>;
