import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ApiKeyInfo, CreatedApiKey } from '../../contract/apiKeys.ts';
import { Conflict, NotFound } from '../domain/errors.ts';

/**
 * What keeping API keys needs of the store (store/apiKeys.ts's repo is one). Declared here because
 * secrets/ sits below the store: the CLI and the HTTP auth hand the repo in.
 */
export interface ApiKeyStore {
  insert(name: string, prefix: string, hash: string): Promise<{ id: string }>;
  /** insert, unless an active key has this name (null then). */
  insertUniquelyNamed(name: string, prefix: string, hash: string): Promise<{ id: string } | null>;
  active(): Promise<{ id: string; hash: string }[]>;
  countActive(): Promise<number>;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * A new key: `bd_` and 32 random bytes, base64url. Only its hash is stored. Its name is how a
 * person tells keys apart ("Revoke ci-bot"), so no two active keys share one: Conflict, on `name`.
 */
export async function createApiKey(repo: ApiKeyStore, name: string): Promise<{ key: string; id: string }> {
  const key = `bd_${randomBytes(32).toString('base64url')}`;
  const row = await repo.insertUniquelyNamed(name, key.slice(0, 10), sha256(key).toString('hex'));
  if (!row) {
    const message = `An active key is already named “${name}”: choose another name, or revoke that key first`;
    throw new Conflict(message, [{ path: 'name', message }]);
  }
  return { key, id: row.id };
}

/** Accept a key given by the operator (BROWSERDESK_API_KEY) as is. */
export async function importApiKey(repo: ApiKeyStore, key: string, name: string): Promise<void> {
  await repo.insert(name, key.slice(0, 6), sha256(key).toString('hex'));
}

/**
 * The id of the active key matching `presented`, or null. Every active hash is compared with
 * timingSafeEqual and the loop never exits early, so timing says nothing about which keys exist.
 */
export async function verifyApiKey(repo: ApiKeyStore, presented: string | undefined): Promise<string | null> {
  if (!presented) return null;
  const digest = sha256(presented);
  let match: string | null = null;
  for (const { id, hash } of await repo.active()) {
    const stored = Buffer.from(hash, 'hex');
    if (stored.length === digest.length && timingSafeEqual(stored, digest)) match = id;
  }
  return match;
}

/**
 * First start: without BROWSERDESK_API_KEY and with no key yet, make one and write it once to
 * DATA_DIR/api-key (0600). Returns the file path when a key was written.
 */
export async function bootstrapApiKey(
  repo: ApiKeyStore,
  dataDir: string,
  envKey: string | undefined,
): Promise<string | null> {
  if (envKey) {
    await importApiKey(repo, envKey, 'BROWSERDESK_API_KEY');
    return null;
  }
  if ((await repo.countActive()) > 0) return null;
  const { key } = await createApiKey(repo, 'first-start');
  const file = path.join(dataDir, 'api-key');
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

/** A stored key as the store lists it (its hash is never read for listing). */
export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

/** What managing keys over the API needs of the store, beyond ApiKeyStore. */
export interface ApiKeyAdminStore extends ApiKeyStore {
  list(): Promise<ApiKeyRecord[]>;
  get(id: string): Promise<ApiKeyRecord | undefined>;
  revokeUnlessLast(id: string): Promise<'revoked' | 'last' | 'none'>;
}

/** createApiKey's prefixes are `bd_` and 7 characters; an imported key's 6 first characters could be most of it, so they are not shown. */
const CREATED_PREFIX_LENGTH = 10;

/**
 * API keys as `npm run keys` manages them, over the API: list (never a key or a hash), create
 * (the key is answered once), revoke (at once: every request checks the store). `currentId` is the
 * key the request came with, marked `current` so the dashboard can warn before revoking its own.
 */
export class ApiKeyAdmin {
  constructor(private readonly repo: ApiKeyAdminStore) {}

  private view(row: ApiKeyRecord, currentId: string | null): ApiKeyInfo {
    return {
      id: row.id,
      name: row.name,
      prefix: row.prefix.length === CREATED_PREFIX_LENGTH ? row.prefix : null,
      created_at: row.created_at,
      revoked_at: row.revoked_at,
      current: row.id === currentId,
    };
  }

  async list(currentId: string | null): Promise<ApiKeyInfo[]> {
    return (await this.repo.list()).map((row) => this.view(row, currentId));
  }

  /** One key as listed, revoked or not; undefined when no key has this id. */
  async find(id: string, currentId: string | null): Promise<ApiKeyInfo | undefined> {
    const row = await this.repo.get(id);
    return row && this.view(row, currentId);
  }

  async create(name: string, currentId: string | null): Promise<CreatedApiKey> {
    const { key, id } = await createApiKey(this.repo, name);
    const row = await this.repo.get(id);
    if (!row) throw new NotFound('API key');
    return { ...this.view(row, currentId), key };
  }

  /** Revoking the key in use is allowed (the dashboard warns first); the last active key is not, or no one could call the API. */
  async revoke(id: string, currentId: string | null): Promise<ApiKeyInfo> {
    const outcome = await this.repo.revokeUnlessLast(id);
    if (outcome === 'none') throw new NotFound('API key', 'no active key has this id');
    if (outcome === 'last')
      throw new Conflict(
        'This is the last active API key: create another before revoking it, or no one could call the API',
      );
    const row = await this.repo.get(id);
    if (!row) throw new NotFound('API key');
    return this.view(row, currentId);
  }
}
