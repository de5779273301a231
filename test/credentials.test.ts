import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SimplexClient } from 'simplex-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { parseSecretKey, subKey } from '../server/secrets/secretKey.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { storeBytes } from './helpers/testDatabase.ts';

/**
 * Credentials as Simplex's TypeScript client stores them: store (or replace), list names and
 * dates, delete; JSON and urlencoded; the value never in an answer nor in the database file; the
 * key file created once, 0600, and reused; BROWSERDESK_SECRET_KEY used instead when set.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const secret = () => `pw-${randomUUID()}-ünï-𝄞`;
const uniqName = (prefix = 'cred') => `${prefix}_${randomBytes(4).toString('hex')}`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const form = (s: TestServer, pathname: string, fields: Record<string, string>) =>
  s.api(pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

interface Info {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  allowed_origins: string[];
}

async function list(s: TestServer = server): Promise<{ body: string; credentials: Info[] }> {
  const res = await s.api('/api/list_credentials');
  expect(res.status).toBe(200);
  const body = await res.text();
  const json = JSON.parse(body) as { succeeded: boolean; credentials: Info[] };
  expect(json.succeeded).toBe(true);
  return { body, credentials: json.credentials };
}

async function expect422(res: Response): Promise<{ path: string; message: string }[]> {
  expect(res.status).toBe(422);
  const json = (await res.json()) as { error: string; issues: { path: string; message: string }[] };
  expect(json.error).toBe('invalid_request');
  return json.issues;
}

/** Every byte SQLite has written for this data folder: the database, its WAL and shared memory. */
describe('store, list, replace, delete', () => {
  it('over JSON: store answers the id, list shows names and dates, a second store replaces the value', async () => {
    const name = uniqName();
    const first = secret();
    const stored = await postJson(server, '/api/store_credential', { name, value: first });
    expect(stored.status).toBe(200);
    const storedText = await stored.text();
    expect(storedText).not.toContain(first);
    const answer = JSON.parse(storedText) as {
      succeeded: boolean;
      name: string;
      credential_id: string;
      replaced: boolean;
    };
    expect(answer).toMatchObject({ succeeded: true, name, replaced: false });

    const before = (await list()).credentials.find((c) => c.name === name)!;
    expect(before).toEqual({
      id: answer.credential_id,
      name,
      created_at: expect.any(String),
      updated_at: before.created_at,
      allowed_origins: [],
    });
    expect(Object.keys(before).sort()).toEqual(['allowed_origins', 'created_at', 'id', 'name', 'updated_at']);
    expect((await server.app.credentials.reveal([name])).get(name)).toBe(first);

    await tick();
    const second = secret();
    const again = await postJson(server, '/api/store_credential', { name, value: second });
    expect(again.status).toBe(200);
    const againText = await again.text();
    expect(againText).not.toContain(second);
    expect(JSON.parse(againText)).toMatchObject({ credential_id: answer.credential_id, replaced: true });
    const after = (await list()).credentials.find((c) => c.name === name)!;
    expect(after.id).toBe(before.id);
    expect(after.created_at).toBe(before.created_at);
    expect(after.updated_at > before.updated_at).toBe(true);
    expect((await server.app.credentials.reveal([name])).get(name)).toBe(second);

    const deleted = await postJson(server, '/api/delete_credential', { name });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ succeeded: true });
    expect((await list()).credentials.map((c) => c.name)).not.toContain(name);
    expect(await server.app.credentials.missing([name])).toEqual([name]);
  });

  it('over urlencoded, as the Python-style form calls send it', async () => {
    const name = uniqName('form');
    const value = `${secret()} with spaces & = signs`;
    const stored = await form(server, '/api/store_credential', { name, value });
    expect(stored.status).toBe(200);
    expect(await stored.text()).not.toContain(value);
    expect((await server.app.credentials.reveal([name])).get(name)).toBe(value);
    expect((await list()).credentials.map((c) => c.name)).toContain(name);
    const deleted = await form(server, '/api/delete_credential', { name });
    expect(deleted.status).toBe(200);
    expect((await list()).credentials.map((c) => c.name)).not.toContain(name);
  });

  it("through Simplex's own TypeScript client", async () => {
    const client = new SimplexClient({ apiKey: server.apiKey, baseURL: `${server.url}/api`, maxRetries: 0 });
    const name = uniqName('sdk');
    const value = secret();
    const stored = await client.storeCredential(name, value);
    expect(stored).toMatchObject({ succeeded: true, name, credential_id: expect.any(String) });
    const listed = await client.listCredentials();
    // Simplex's clients never send allowed_origins: what they store may be typed into any page, as before.
    expect(listed.credentials?.find((c) => c.name === name)).toMatchObject({
      id: stored.credential_id,
      allowed_origins: [],
    });
    expect(JSON.stringify(listed)).not.toContain(value);
    expect(await client.deleteCredential(name)).toEqual({ succeeded: true });
  });

  it('deleting an unknown name is a 404 in the error shape', async () => {
    const res = await postJson(server, '/api/delete_credential', { name: 'never_stored' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not_found', message: 'Credential never_stored not found' });
  });

  it('missing() names what is not stored; reveal() of a name not stored names it and gives nothing', async () => {
    const name = uniqName();
    await postJson(server, '/api/store_credential', { name, value: 'x' });
    expect(await server.app.credentials.missing([name, 'absent_one', 'absent_one'])).toEqual(['absent_one']);
    await expect(server.app.credentials.reveal([name, 'absent_one'])).rejects.toThrow(
      /credential absent_one is no longer stored/,
    );
  });

  it('is listed in the OpenAPI document with both encodings', async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: object } }>>;
    };
    expect(Object.keys(doc.paths['/store_credential']!.post!.requestBody!.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    expect(doc.paths['/list_credentials']!.get).toBeDefined();
    expect(doc.paths['/delete_credential']!.post).toBeDefined();
  });
});

describe('allowed origins', () => {
  const originsOf = async (name: string) => (await list()).credentials.find((c) => c.name === name)?.allowed_origins;

  it('over JSON: stored normalised (case, default port, final slash) and de-duplicated, listed, and read with the value', async () => {
    const name = uniqName('origins');
    const res = await postJson(server, '/api/store_credential', {
      name,
      value: 'v',
      allowed_origins: ['https://Bank.Example/', 'https://bank.example:443', 'http://127.0.0.1:8080'],
    });
    expect(res.status).toBe(200);
    expect(await originsOf(name)).toEqual(['https://bank.example', 'http://127.0.0.1:8080']);
    expect((await server.app.credentials.revealForRun([name])).origins).toEqual(
      new Map([[name, ['https://bank.example', 'http://127.0.0.1:8080']]]),
    );
  });

  it('over urlencoded: one field separated by commas or new lines, the field repeated, or a JSON array as a string', async () => {
    for (const body of [
      'allowed_origins=https%3A%2F%2Fa.example%2C%20https%3A%2F%2Fb.example',
      'allowed_origins=https%3A%2F%2Fa.example%0D%0Ahttps%3A%2F%2Fb.example%0A',
      'allowed_origins=https%3A%2F%2Fa.example&allowed_origins=https%3A%2F%2Fb.example',
      `allowed_origins=${encodeURIComponent('["https://a.example","https://b.example"]')}`,
    ]) {
      const name = uniqName('form_origins');
      const res = await server.api('/api/store_credential', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `name=${name}&value=v&${body}`,
      });
      expect(res.status, body).toBe(200);
      expect(await originsOf(name)).toEqual(['https://a.example', 'https://b.example']);
    }
  });

  it('a replacement without them keeps the origins it had; an empty list (or field) lets it go anywhere', async () => {
    const name = uniqName('keep');
    await postJson(server, '/api/store_credential', { name, value: 'one', allowed_origins: ['https://bank.example'] });
    expect((await postJson(server, '/api/store_credential', { name, value: 'two' })).status).toBe(200);
    expect(await originsOf(name)).toEqual(['https://bank.example']);
    expect((await server.app.credentials.reveal([name])).get(name)).toBe('two');
    expect(
      (
        await postJson(server, '/api/store_credential', {
          name,
          value: 'three',
          allowed_origins: ['https://other.example'],
        })
      ).status,
    ).toBe(200);
    expect(await originsOf(name)).toEqual(['https://other.example']);
    expect((await postJson(server, '/api/store_credential', { name, value: 'four', allowed_origins: [] })).status).toBe(
      200,
    );
    expect(await originsOf(name)).toEqual([]);
    await postJson(server, '/api/store_credential', { name, value: 'five', allowed_origins: ['https://bank.example'] });
    expect((await form(server, '/api/store_credential', { name, value: 'six', allowed_origins: '' })).status).toBe(200);
    expect(await originsOf(name)).toEqual([]);
  });

  const bad: [string, unknown, string, RegExp][] = [
    [
      'a path',
      ['https://bank.example/login'],
      'allowed_origins.0',
      /"https:\/\/bank.example\/login" is not an origin: give the scheme and host .* no path, query or wildcard/,
    ],
    [
      'a query',
      ['https://bank.example', 'https://bank.example?x=1'],
      'allowed_origins.1',
      /"https:\/\/bank.example\?x=1" is not an origin/,
    ],
    ['no scheme', ['bank.example'], 'allowed_origins.0', /"bank.example" is not an origin/],
    ['another scheme', ['ftp://bank.example'], 'allowed_origins.0', /is not an origin/],
    ['a wildcard', ['https://*.bank.example'], 'allowed_origins.0', /is not an origin/],
    ['a user', ['https://me@bank.example'], 'allowed_origins.0', /is not an origin/],
    ['a javascript: URL', ['javascript:alert(1)'], 'allowed_origins.0', /is not an origin/],
    ['a number', [443], 'allowed_origins', /must be a list of origins/],
    ['an object', { origin: 'https://bank.example' }, 'allowed_origins', /must be a list of origins/],
    [
      '21 origins',
      Array.from({ length: 21 }, (_, i) => `https://a${i}.example`),
      'allowed_origins',
      /at most 20 origins \(21 given\)/,
    ],
  ];
  it.each(bad)(
    '%s: 422 naming the origin, and nothing stored or changed',
    async (_what, allowed_origins, field, message) => {
      const name = uniqName('bad_origins');
      const issues = await expect422(
        await postJson(server, '/api/store_credential', { name, value: 'v', allowed_origins }),
      );
      expect(issues.find((i) => i.path === field)?.message).toMatch(message);
      expect((await list()).credentials.map((c) => c.name)).not.toContain(name);
      // A replacement refused the same way leaves the value and the origins as they were.
      await postJson(server, '/api/store_credential', {
        name,
        value: 'kept',
        allowed_origins: ['https://bank.example'],
      });
      await expect422(await postJson(server, '/api/store_credential', { name, value: 'not kept', allowed_origins }));
      expect(await originsOf(name)).toEqual(['https://bank.example']);
      expect((await server.app.credentials.reveal([name])).get(name)).toBe('kept');
    },
  );

  it('a bad origin in a form body is refused the same way', async () => {
    const name = uniqName('bad_form');
    const issues = await expect422(
      await form(server, '/api/store_credential', {
        name,
        value: 'v',
        allowed_origins: 'https://bank.example, https://bank.example/x',
      }),
    );
    expect(issues).toEqual([
      { path: 'allowed_origins.1', message: expect.stringMatching(/"https:\/\/bank.example\/x" is not an origin/) },
    ]);
    expect((await list()).credentials.map((c) => c.name)).not.toContain(name);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Record<string, unknown>;
    expect(JSON.stringify(doc)).toContain(
      'Origins (scheme://host[:port], up to 20) of the pages the runner may type this credential into',
    );
  });
});

describe('bad requests store nothing', () => {
  const cases: [string, unknown, string][] = [
    ['missing name', { value: 'v' }, 'name'],
    ['missing value', { name: 'ok_name' }, 'value'],
    ['name with a space', { name: 'my password', value: 'v' }, 'name'],
    ['name starting with a digit', { name: '1password', value: 'v' }, 'name'],
    ['name of 101 characters', { name: `a${'b'.repeat(100)}`, value: 'v' }, 'name'],
    ['empty value', { name: 'ok_name', value: '' }, 'value'],
    ['value of 4097 characters', { name: 'ok_name', value: 'x'.repeat(4097) }, 'value'],
    ['value with a lone surrogate', { name: 'ok_name', value: 'abc\ud800' }, 'value'],
    ['value that is a number', { name: 'ok_name', value: 1234 }, 'value'],
    ['an extra field', { name: 'ok_name', value: 'v', owner: 'me' }, 'owner'],
  ];
  it.each(cases)('%s: 422 naming the field', async (_what, body, field) => {
    const issues = await expect422(await postJson(server, '/api/store_credential', body));
    expect(issues.map((i) => i.path)).toContain(field);
    expect((await list()).credentials.map((c) => c.name)).not.toContain('ok_name');
  });

  it('a value of exactly 4096 characters (astral ones count once) is accepted', async () => {
    const name = uniqName('long');
    const value = '𝄞'.repeat(4096);
    expect((await postJson(server, '/api/store_credential', { name, value })).status).toBe(200);
    expect((await server.app.credentials.reveal([name])).get(name)).toBe(value);
  });

  it('messages say what a name may be', async () => {
    const issues = await expect422(await postJson(server, '/api/store_credential', { name: 'a.b', value: 'v' }));
    expect(issues[0]!.message).toMatch(/letters, digits, _ and -/);
    expect((await expect422(await postJson(server, '/api/store_credential', { value: 'v' })))[0]!.message).toBe(
      'name is required',
    );
  });

  it('a bad request never echoes the value', async () => {
    const value = secret();
    const res = await postJson(server, '/api/store_credential', { name: 'bad name', value });
    expect(res.status).toBe(422);
    expect(await res.text()).not.toContain(value);
  });

  it('another content type is a 415', async () => {
    const res = await server.api('/api/store_credential', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'name=x&value=y',
    });
    expect(res.status).toBe(415);
  });

  it('without the API key: 401 on all three, and nothing stored', async () => {
    const name = uniqName('nokey');
    const calls = [
      fetch(`${server.url}/api/store_credential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, value: 'v' }),
      }),
      fetch(`${server.url}/api/list_credentials`),
      fetch(`${server.url}/api/delete_credential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'wrong_key_0123456789' },
        body: JSON.stringify({ name }),
      }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toBe('unauthorized');
    }
    expect(await server.app.credentials.missing([name])).toEqual([name]);
  });
});

describe('at rest', () => {
  it("the store's files (SQLite's file and WAL, or Postgres' data files) never hold the value", async () => {
    const name = uniqName('rest');
    const value = `plaintext-${randomUUID()}`;
    expect((await postJson(server, '/api/store_credential', { name, value })).status).toBe(200);
    const needles = [Buffer.from(value, 'utf8'), Buffer.from(value, 'utf16le')];
    // Before and after a checkpoint: the WAL first, then the table's own pages.
    for (const needle of needles) expect((await storeBytes(server)).includes(needle)).toBe(false);
    if (server.app.db.engine === 'sqlite') await server.app.db.run('PRAGMA wal_checkpoint(TRUNCATE)');
    for (const needle of needles) expect((await storeBytes(server)).includes(needle)).toBe(false);
    // The row holds iv | tag | ciphertext: 12 + 16 + the value's length, and not the value.
    const row = (await server.app.db.get<{ secret: Buffer }>('SELECT secret FROM credentials WHERE name = ?', [name]))!;
    expect(row.secret.length).toBe(12 + 16 + Buffer.byteLength(value));
  });

  it('the same value stored twice is sealed differently (a fresh IV each time)', async () => {
    const name = uniqName('iv');
    const sealed = async () =>
      (await server.app.db.get<{ secret: Buffer }>('SELECT secret FROM credentials WHERE name = ?', [name]))!.secret;
    await postJson(server, '/api/store_credential', { name, value: 'same' });
    const first = await sealed();
    await postJson(server, '/api/store_credential', { name, value: 'same' });
    const second = await sealed();
    expect(second.equals(first)).toBe(false);
    expect(first.subarray(0, 12).equals(second.subarray(0, 12))).toBe(false);
  });
});

describe('the secret key', () => {
  it('is created once in DATA_DIR/secret-key (32 bytes, mode 0600) and reused after a restart, so values still decrypt', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cred-'));
    const file = path.join(dir, 'secret-key');
    const first = await startServer({}, dir);
    const name = uniqName('restart');
    const value = secret();
    try {
      const stat = fs.statSync(file);
      expect(stat.mode & 0o777).toBe(0o600);
      expect(stat.size).toBe(32);
      expect(first.app.secretKey.equals(fs.readFileSync(file))).toBe(true);
      expect((await postJson(first, '/api/store_credential', { name, value })).status).toBe(200);
    } finally {
      await first.close();
    }
    const keyBytes = fs.readFileSync(file);
    const mtime = fs.statSync(file).mtimeMs;
    const second = await startServer({}, dir);
    try {
      expect(fs.readFileSync(file).equals(keyBytes)).toBe(true);
      expect(fs.statSync(file).mtimeMs).toBe(mtime);
      expect(second.app.secretKey.equals(keyBytes)).toBe(true);
      expect((await second.app.credentials.reveal([name])).get(name)).toBe(value);
      expect((await list(second)).credentials.map((c) => c.name)).toEqual([name]);
    } finally {
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('BROWSERDESK_SECRET_KEY is used when set (hex or base64), and no key file is written', async () => {
    const key = randomBytes(32);
    for (const spelling of [key.toString('hex'), key.toString('base64'), key.toString('base64url')]) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cred-env-'));
      const s = await startServer({ BROWSERDESK_SECRET_KEY: spelling }, dir);
      try {
        expect(s.app.secretKey.equals(key)).toBe(true);
        expect(fs.existsSync(path.join(dir, 'secret-key'))).toBe(false);
        const name = uniqName('env');
        await postJson(s, '/api/store_credential', { name, value: 'from env' });
        expect((await s.app.credentials.reveal([name])).get(name)).toBe('from env');
      } finally {
        await s.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it('a bad BROWSERDESK_SECRET_KEY is a one-line start error that does not repeat it', () => {
    for (const bad of [
      'short',
      'z'.repeat(64),
      randomBytes(31).toString('hex'),
      randomBytes(33).toString('base64'),
      `${randomBytes(32).toString('hex')}00`,
    ]) {
      let message = '';
      try {
        loadConfig({ BROWSERDESK_SECRET_KEY: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^Invalid environment variable BROWSERDESK_SECRET_KEY: must be 32 bytes/);
      expect(message).not.toContain(bad);
    }
    expect(parseSecretKey(` ${'ab'.repeat(32)}\n`)?.length).toBe(32);
  });

  it('a key file of the wrong size stops the start with a clear message and is left as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cred-bad-'));
    const file = path.join(dir, 'secret-key');
    fs.writeFileSync(file, 'not a key\n', { mode: 0o600 });
    try {
      await expect(startServer({}, dir)).rejects.toThrow(/secret-key holds 10 bytes, not 32: .*backup/);
      expect(fs.readFileSync(file, 'utf8')).toBe('not a key\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a key file others can read is put back to 0600 (and still used)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cred-mode-'));
    const file = path.join(dir, 'secret-key');
    const key = randomBytes(32);
    fs.writeFileSync(file, key);
    fs.chmodSync(file, 0o644);
    const s = await startServer({}, dir);
    try {
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(s.app.secretKey.equals(key)).toBe(true);
    } finally {
      await s.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('subKey derives a different 32-byte key per purpose, the same each time', () => {
    const master = randomBytes(32);
    const a = subKey(master, 'credentials');
    expect(a.length).toBe(32);
    expect(subKey(master, 'credentials').equals(a)).toBe(true);
    expect(subKey(master, 'signed-urls').equals(a)).toBe(false);
    expect(a.equals(master)).toBe(false);
    expect(() => subKey(randomBytes(16), 'credentials')).toThrow();
  });
});
