import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialUnreadableError } from '../../server/secrets/credentialCipher.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { startChildServer, type ChildServer } from '../helpers/childServer.ts';
import { activeSession, postMessage, untilPaused } from '../helpers/runMessages.ts';
import { createWorkflow, runWorkflow, untilCompleted } from '../helpers/runs.ts';

// Credentials tried as an attacker would: names that reach for paths or prototypes, lists read in
// the hope of a value, rows edited or swapped in the database file, and the logs read for a value.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const uniq = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;
const store = (s: TestServer, name: unknown, value: unknown) => postJson(s, '/api/store_credential', { name, value });
const names = async (s: TestServer = server) =>
  ((await (await s.api('/api/list_credentials')).json()) as { credentials: { name: string }[] }).credentials.map(
    (c) => c.name,
  );

describe('names', () => {
  const refused = [
    '../x',
    '..',
    'a/b',
    'a\\b',
    'a.b',
    'credentials.x',
    '__proto__',
    'constructor',
    'toString',
    'prototype',
    `a${'b'.repeat(100)}`,
    'x'.repeat(100_000),
    'ünïcode',
    'pass\u200bword',
    'pаssword', // Cyrillic a
    '𝄞',
    '',
    ' x',
    'x ',
    'x\n',
    'x\u0000',
    '-x',
    '1x',
    '{{x}}',
    'x;DROP TABLE credentials',
  ];
  it.each(refused.map((n) => [JSON.stringify(n).slice(0, 40), n]))(
    '%s is refused with 422 naming name, and nothing is stored',
    async (_label, name) => {
      const res = await store(server, name, 'v');
      expect(res.status).toBe(422);
      const body = (await res.json()) as { issues: { path: string }[] };
      expect(body.issues.map((i) => i.path)).toEqual(['name']);
      expect(await names()).not.toContain(name);
      // Deleting by such a name is refused the same way, never looked up.
      expect((await postJson(server, '/api/delete_credential', { name })).status).toBe(422);
    },
  );

  it('a name as an array, an object or a number is refused (JSON and urlencoded)', async () => {
    for (const name of [['a', 'b'], { toString: 'a' }, 12, null, true])
      expect((await store(server, name, 'v')).status).toBe(422);
    const twice = await server.api('/api/store_credential', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=a&name=b&value=v',
    });
    expect(twice.status).toBe(422);
    const proto = await server.api('/api/store_credential', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '__proto__=x&name=ok_form&value=v',
    });
    expect(proto.status).toBe(422);
    // Fastify's JSON parser refuses a __proto__ key outright, before the contract sees it.
    const json = await server.api('/api/store_credential', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"ok_json","value":"v","__proto__":{"x":1}}',
    });
    expect(json.status).toBe(400);
    expect(await names()).not.toContain('ok_form');
    expect(await names()).not.toContain('ok_json');
  });

  it('names are case-sensitive, as the placeholder is: Password and password are two credentials', async () => {
    const base = uniq('Case');
    expect((await store(server, base, 'upper')).status).toBe(200);
    expect((await store(server, base.toLowerCase(), 'lower')).status).toBe(200);
    const revealed = await server.app.credentials.reveal([base, base.toLowerCase()]);
    expect([revealed.get(base), revealed.get(base.toLowerCase())]).toEqual(['upper', 'lower']);
  });
});

describe('lists', () => {
  it('never carry a value, even after many stores and replacements', async () => {
    const values = new Map<string, string>();
    for (let i = 0; i < 40; i++) {
      const name = uniq(`many${i}`);
      const value = `v${i}-${randomUUID()}`;
      values.set(name, value);
      expect((await store(server, name, value)).status).toBe(200);
    }
    for (const name of [...values.keys()].slice(0, 10)) {
      const value = `replaced-${randomUUID()}`;
      values.set(name, value);
      expect((await store(server, name, value)).status).toBe(200);
    }
    const res = await server.api('/api/list_credentials');
    const text = await res.text();
    for (const value of values.values()) expect(text).not.toContain(value);
    const listed = (JSON.parse(text) as { credentials: Record<string, unknown>[] }).credentials;
    for (const entry of listed)
      expect(Object.keys(entry).sort()).toEqual(['allowed_origins', 'created_at', 'id', 'name', 'updated_at']);
    expect(listed.map((c) => c.name)).toEqual(expect.arrayContaining([...values.keys()]));
    // And the sealed bytes are not in it either.
    const sealed = await server.app.db.all<{ secret: Buffer }>('SELECT secret FROM credentials');
    for (const { secret } of sealed) {
      expect(text).not.toContain(secret.toString('base64'));
      expect(text).not.toContain(secret.toString('hex'));
    }
  });
});

describe('rows edited in the database', () => {
  // Written as someone with the database (SQLite's file, or a Postgres login) but not the key would.
  const sealedOf = async (name: string) =>
    (await server.app.db.get<{ secret: Buffer }>('SELECT secret FROM credentials WHERE name = ?', [name]))!.secret;
  const setSealed = (name: string, secret: Buffer) =>
    server.app.db.run('UPDATE credentials SET secret = ? WHERE name = ?', [secret, name]);

  async function expectUnreadable(name: string, value: string) {
    let caught: unknown;
    try {
      await server.app.credentials.reveal([name]);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CredentialUnreadableError);
    const message = (caught as Error).message;
    expect(message).toContain(`The credential ${name} could not be decrypted`);
    expect(message).not.toContain(value);
    expect(message).not.toMatch(/[0-9a-f]{16}/);
    expect(JSON.stringify(caught)).not.toContain(value);
  }

  it('a flipped bit in the IV, the tag or the ciphertext, or a cut row, fails to decrypt with a clear error and no plaintext', async () => {
    const value = `tamper-${randomUUID()}`;
    for (const [what, edit] of [
      ['iv', (b: Buffer) => (b[0]! ^= 1)],
      ['tag', (b: Buffer) => (b[12]! ^= 0x80)],
      ['ciphertext', (b: Buffer) => (b[b.length - 1]! ^= 1)],
    ] as const) {
      const name = uniq(`tamper_${what}`);
      expect((await store(server, name, value)).status).toBe(200);
      const sealed = Buffer.from(await sealedOf(name));
      edit(sealed);
      await setSealed(name, sealed);
      await expectUnreadable(name, value);
    }
    const cut = uniq('tamper_cut');
    await store(server, cut, value);
    await setSealed(cut, (await sealedOf(cut)).subarray(0, 20));
    await expectUnreadable(cut, value);
    await setSealed(cut, Buffer.alloc(0));
    await expectUnreadable(cut, value);
    // The list still answers (names only), and the server says at its next start which ones are unreadable.
    expect(await names()).toContain(cut);
    expect(await server.app.credentials.unreadable()).toContain(cut);
  });

  it('a sealed value copied onto another name does not open there (the name is authenticated)', async () => {
    const victim = uniq('victim');
    const mine = uniq('mine');
    const value = `victim-${randomUUID()}`;
    await store(server, victim, value);
    await store(server, mine, 'my own');
    await setSealed(mine, await sealedOf(victim));
    await expectUnreadable(mine, value);
    // Renaming the row instead is the same: the row now answers to a name it was not sealed under.
    await server.app.db.run('UPDATE credentials SET name = ? WHERE name = ?', [`${victim}_x`, victim]);
    await expectUnreadable(`${victim}_x`, value);
  });

  it('under another secret key, every value is unreadable and named as such', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cred-key-'));
    const name = uniq('rekeyed');
    const value = `rekeyed-${randomUUID()}`;
    const first = await startServer({ BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex') }, dir);
    try {
      await store(first, name, value);
    } finally {
      await first.close();
    }
    const second = await startServer({ BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex') }, dir);
    try {
      await expect(second.app.credentials.reveal([name])).rejects.toThrow(
        new RegExp(`The credential ${name} could not be decrypted: the server's secret key changed`),
      );
      expect(await second.app.credentials.unreadable()).toEqual([name]);
      expect(await names(second)).toEqual([name]);
    } finally {
      await second.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('logs', () => {
  // The real entry point in a child process at LOG_LEVEL info, so that everything pino writes to
  // stdout and stderr is captured (it writes to the file descriptor, not through process.stdout).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-cred-logs-'));
  const children: ChildServer[] = [];
  afterAll(async () => {
    for (const child of children) await child.stop('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function serve(extraEnv: Record<string, string>): Promise<ChildServer> {
    const child = await startChildServer({
      dataDir,
      apiKey: 'test_credential_logs_0123456789',
      env: { LOG_LEVEL: 'info', ...extraEnv },
      timeoutMs: 60_000,
    });
    children.push(child);
    return child;
  }

  it('never hold a value: stores (JSON and urlencoded), replacements, refused requests, deletes, a key that no longer opens them', async () => {
    const keyA = randomBytes(32).toString('hex');
    const name = uniq('logged');
    const values = [
      `json-${randomUUID()}`,
      `form-${randomUUID()}`,
      `refused-${randomUUID()}`,
      `replaced-${randomUUID()}`,
    ];
    const a = await serve({ BROWSERDESK_SECRET_KEY: keyA });
    const headers = { 'x-api-key': 'test_credential_logs_0123456789' };
    const post = (pathname: string, contentType: string, body: string) =>
      fetch(`${a.url}${pathname}`, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
    try {
      expect(
        (await post('/api/store_credential', 'application/json', JSON.stringify({ name, value: values[0] }))).status,
      ).toBe(200);
      expect(
        (
          await post(
            '/api/store_credential',
            'application/x-www-form-urlencoded',
            new URLSearchParams({ name: `${name}_f`, value: values[1]! }).toString(),
          )
        ).status,
      ).toBe(200);
      expect(
        (
          await post(
            '/api/store_credential',
            'application/json',
            JSON.stringify({ name: 'bad name', value: values[2] }),
          )
        ).status,
      ).toBe(422);
      expect(
        (await post('/api/store_credential', 'application/json', `{"name":"${name}","value":"${values[2]}"`)).status,
      ).toBe(400);
      expect(
        (await post('/api/store_credential', 'application/json', JSON.stringify({ name, value: values[3] }))).status,
      ).toBe(200);
      expect((await fetch(`${a.url}/api/list_credentials`, { headers })).status).toBe(200);
      expect(
        (await post('/api/delete_credential', 'application/json', JSON.stringify({ name: `${name}_f` }))).status,
      ).toBe(200);
    } finally {
      await a.stop();
    }
    // Restarted under another key: the start-up check names what no longer decrypts.
    const b = await serve({ BROWSERDESK_SECRET_KEY: randomBytes(32).toString('hex') });
    await b.stop();

    const logs = a.output() + b.output();
    expect(logs).toContain('"url":"/api/store_credential"');
    expect(logs).toMatch(new RegExp(`do not decrypt with this server's secret key \\(${name}\\)`));
    for (const value of values) expect(logs).not.toContain(value);
    expect(logs).not.toContain(keyA);
  });
});

describe('substituted text is never expanded again (issue 44)', () => {
  // Text a variable or a pause answer brings in is typed as it is: a template comes only from the
  // stored flow. Two answers, `{{credentials.NAME` and `}}`, each without a whole placeholder, filled
  // `{{a}}{{b}}` and the joined text was expanded again into the credential.
  let site: http.Server;
  let origin = '';
  beforeAll(async () => {
    site = http.createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><title>Form</title>
        <input id="field" oninput="document.getElementById('mirror').textContent = this.value">
        <input id="other"><p id="mirror"></p>`,
      ),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    site?.closeAllConnections();
    await new Promise((resolve) => site?.close(resolve));
  });

  /** A credential allowed anywhere, so that only the substitution stands between the flow and it; its name. */
  async function anywhere(): Promise<string> {
    const name = uniq('split');
    expect((await store(server, name, `S3cret-${randomUUID()}`)).status).toBe(200);
    return name;
  }

  /**
   * `{{a}}{{b}}` typed where the page shows it back, then read; the stored flow names the
   * credential in a last step of its own, so the run has its value at hand.
   */
  const steps = (name: string, before: unknown[]) => [
    { type: 'navigate', url: `${origin}/form` },
    ...before,
    { type: 'change', selectors: [['#field']], value: '{{a}}{{b}}' },
    { type: 'customStep', name: 'extract', parameters: { selectors: [['#mirror']], as: 'typed' } },
    { type: 'change', selectors: [['#other']], value: `{{credentials.${name}}}` },
  ];

  it('two pause answers, `{{credentials.NAME` and `}}`, are typed as they are', async () => {
    const name = await anywhere();
    const pause = (variable: string) => ({
      type: 'customStep',
      name: 'pause',
      parameters: { message: `Give ${variable}`, variable },
    });
    const workflowId = await createWorkflow(server, {
      name: uniq('split_answers'),
      flow: { title: 'split', timeout: 30_000, steps: steps(name, [pause('a'), pause('b')]) },
    });
    const run = await runWorkflow(server, { workflow_id: workflowId });
    expect(run.status, run.body.message).toBe(200);
    const sessionId = run.body.session_id!;
    const first = await untilPaused(server, sessionId);
    const url = (await activeSession(server, workflowId)).message_url!;
    expect((await postMessage(url, { message: `{{credentials.${name}` })).status).toBe(200);
    await untilPaused(server, sessionId, first.paused_key!);
    expect((await postMessage(url, { message: '}}' })).status).toBe(200);
    const status = await untilCompleted(server, sessionId);
    expect(status.message).toBe('All 6 steps succeeded');
    expect(status.outputs.typed).toBe(`{{credentials.${name}}}`);
  });

  it.each([
    ['split in two', (name: string) => ({ a: `{{credentials.${name}`, b: '}}' })],
    ['whole in one', (name: string) => ({ a: `{{credentials.${name}}}`, b: '' })],
    ['split around spaces', (name: string) => ({ a: `{{ credentials.${name} `, b: '}}' })],
  ])('run variables holding a placeholder (%s) are typed as they are', async (_label, variables) => {
    const name = await anywhere();
    const workflowId = await createWorkflow(server, {
      name: uniq('split_variables'),
      flow: { title: 'split', timeout: 30_000, steps: steps(name, []) },
      variables: [
        { name: 'a', type: 'string', required: true },
        { name: 'b', type: 'string', required: false },
      ],
    });
    const given = variables(name);
    const run = await runWorkflow(server, { workflow_id: workflowId, variables: JSON.stringify(given) });
    expect(run.status, run.body.message).toBe(200);
    const status = await untilCompleted(server, run.body.session_id!);
    expect(status.message).toBe('All 4 steps succeeded');
    expect(status.outputs.typed).toBe(`${given.a}${given.b}`);
  });
});
