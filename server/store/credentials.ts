import { randomUUID } from 'node:crypto';
import { nowIso, type Db } from './db.ts';

export interface CredentialRow {
  id: string;
  name: string;
  secret: Buffer;
  created_at: string;
  updated_at: string;
}

/** The credentials table: sealed values by name (server/secrets/credentialCipher.ts). */
export function credentialsRepo(db: Db) {
  const byName = db.prepare<[string], CredentialRow>('SELECT * FROM credentials WHERE name = ?');
  const upsert = db.prepare(
    `INSERT INTO credentials (id, name, secret, created_at, updated_at) VALUES (@id, @name, @secret, @now, @now)
     ON CONFLICT (name) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at`,
  );
  return {
    get: (name: string) => byName.get(name),
    /** Store or replace; the row as it now is. */
    put(name: string, secret: Buffer): CredentialRow {
      upsert.run({ id: randomUUID(), name, secret, now: nowIso() });
      return byName.get(name)!;
    },
    list: () => db.prepare<[], Omit<CredentialRow, 'secret'>>('SELECT id, name, created_at, updated_at FROM credentials ORDER BY name').all(),
    delete: (name: string) => db.prepare('DELETE FROM credentials WHERE name = ?').run(name).changes > 0,
  };
}
export type CredentialsRepo = ReturnType<typeof credentialsRepo>;
