import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { nowIso, type Sql } from './db.ts';
import { jsonColumn } from './jsonColumn.ts';

export interface CredentialRow {
  id: string;
  name: string;
  /** iv | tag | ciphertext (server/secrets/credentialCipher.ts). */
  secret: Buffer;
  created_at: string;
  updated_at: string;
  /** Origins of the pages it may be typed into (contract/credentials.ts normalised them); empty: any page. */
  allowed_origins: string[];
}

/** What may leave the store for a list: everything but the secret. */
export type CredentialMeta = Omit<CredentialRow, 'secret'>;

const originsColumn = jsonColumn('credentials.allowed_origins', z.array(z.string()));
/** A row whose allowed_origins does not hold a list of origins reads as nowhere rather than anywhere. */
const originsOf = (json: string): string[] => originsColumn.readOr(json, ['null']);

type Stored<T> = Omit<T, 'allowed_origins'> & { allowed_origins: string };
const meta = (row: Stored<CredentialMeta>): CredentialMeta => ({
  ...row,
  allowed_origins: originsOf(row.allowed_origins),
});

/** The credentials table. It holds sealed secrets only; sealing and opening is the caller's. */
export function credentialsRepo(sql: Sql) {
  return {
    list: async () =>
      (
        await sql.all<Stored<CredentialMeta>>(
          'SELECT id, name, created_at, updated_at, allowed_origins FROM credentials ORDER BY name',
        )
      ).map(meta),
    /**
     * Insert, or replace the secret of the credential of that name (its id and created_at stay).
     * `allowedOrigins` undefined: a new credential may go anywhere, a replaced one keeps its origins.
     */
    async put(
      name: string,
      secret: Buffer,
      allowedOrigins?: readonly string[],
    ): Promise<{ row: CredentialMeta; replaced: boolean }> {
      const id = randomUUID();
      const now = nowIso();
      const keepOrigins = allowedOrigins === undefined;
      // One statement: a concurrent store of the same name replaces, never fails on the UNIQUE name.
      const row = (await sql.get<Stored<CredentialMeta>>(
        `INSERT INTO credentials (id, name, secret, created_at, updated_at, allowed_origins) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET secret = excluded.secret, updated_at = excluded.updated_at${keepOrigins ? '' : ', allowed_origins = excluded.allowed_origins'}
         RETURNING id, name, created_at, updated_at, allowed_origins`,
        [id, name, secret, now, now, originsColumn.write([...(allowedOrigins ?? [])])],
      ))!;
      return { row: meta(row), replaced: row.id !== id };
    },
    /** The sealed secret and the origins of one credential, read together (what a run types and where). */
    sealedWithOrigins: async (name: string): Promise<{ secret: Buffer; allowed_origins: string[] } | undefined> => {
      const row = await sql.get<{ secret: Buffer; allowed_origins: string }>(
        'SELECT secret, allowed_origins FROM credentials WHERE name = ?',
        [name],
      );
      return row && { secret: row.secret, allowed_origins: originsOf(row.allowed_origins) };
    },
    originsOf: async (name: string): Promise<string[] | undefined> => {
      const row = await sql.get<{ allowed_origins: string }>('SELECT allowed_origins FROM credentials WHERE name = ?', [
        name,
      ]);
      return row && originsOf(row.allowed_origins);
    },
    has: async (name: string): Promise<boolean> =>
      (await sql.get('SELECT 1 AS one FROM credentials WHERE name = ?', [name])) !== undefined,
    /** Every name with its sealed secret (the start-up check that they still open). */
    sealedAll: () => sql.all<Pick<CredentialRow, 'name' | 'secret'>>('SELECT name, secret FROM credentials'),
    /** True when there was a credential of that name. */
    delete: async (name: string): Promise<boolean> =>
      (await sql.run('DELETE FROM credentials WHERE name = ?', [name])) > 0,
  };
}

export type CredentialsRepo = ReturnType<typeof credentialsRepo>;
