import { randomUUID } from 'node:crypto';
import { nowIso, type Db } from './db.ts';

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
export function credentialsRepo(db: Db) {
  const list = db.prepare<[], CredentialMeta>('SELECT id, name, created_at, updated_at FROM credentials ORDER BY name');
  const secretOf = db.prepare<[string], Pick<CredentialRow, 'secret'>>('SELECT secret FROM credentials WHERE name = ?');
  const exists = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM credentials WHERE name = ?');
  const all = db.prepare<[], Pick<CredentialRow, 'name' | 'secret'>>('SELECT name, secret FROM credentials');
  // One statement: a concurrent store of the same name replaces, never fails on the UNIQUE name.
  const upsert = db.prepare<[{ id: string; name: string; secret: Buffer; now: string }], CredentialMeta>(
    `INSERT INTO credentials (id, name, secret, created_at, updated_at) VALUES (@id, @name, @secret, @now, @now)
     ON CONFLICT(name) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at
     RETURNING id, name, created_at, updated_at`,
  );
  const remove = db.prepare<[string]>('DELETE FROM credentials WHERE name = ?');
  return {
    list: (): CredentialMeta[] => list.all(),
    /** Insert, or replace the secret of the credential of that name (its id and created_at stay). */
    put(name: string, secret: Buffer): { row: CredentialMeta; replaced: boolean } {
      const id = randomUUID();
      const row = upsert.get({ id, name, secret, now: nowIso() })!;
      return { row, replaced: row.id !== id };
    },
    secretOf: (name: string): Buffer | undefined => secretOf.get(name)?.secret,
    has: (name: string): boolean => exists.get(name) !== undefined,
    /** Every name with its sealed secret (the start-up check that they still open). */
    sealedAll: () => all.all(),
    /** True when there was a credential of that name. */
    delete: (name: string): boolean => remove.run(name).changes > 0,
  };
}

export type CredentialsRepo = ReturnType<typeof credentialsRepo>;
