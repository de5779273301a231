import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Profile } from '../contract/profiles.ts';
import type { SessionEvent } from '../contract/sessionEvents.ts';
import { LOGIN, loginStateIn, startLoginSite, visitLoginSite, type LoginSite } from './fixtures/loginSite.ts';
import { browserProcess } from './helpers/processes.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { storeBytes } from './helpers/testDatabase.ts';
import { startFakeModel, type FakeModel } from './helpers/fakeModel.ts';
import { callTool, mcpClient, textOf } from './helpers/mcpClient.ts';
import { createWorkflow, runWorkflow, untilCompleted } from './helpers/runs.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { waitForAsync } from './helpers/wait.ts';

// Profiles (issue 35): a login made in one session (an HttpOnly cookie, a localStorage token and an
// IndexedDB record) is there in a later one; what is stored never shows it; tampering, locks,
// limits and crashes are refused or reported, and the previous version stays. Real server, real
// Chromium, a real local site.
let server: TestServer;
let site: LoginSite;
let model: FakeModel;
beforeAll(async () => {
  [site, model] = await Promise.all([startLoginSite(), startFakeModel()]);
  // A model, so that editor sessions start; none of these tests asks it anything.
  server = await startServer({ RECORD_SESSIONS: 'off', WARM_POOL_SIZE: '1', ...model.env('openai-compatible') });
});
afterAll(async () => {
  await closeLeavingNothing(server);
  await site?.close();
  await model?.close();
});

type Use = { name: string; persist?: boolean };

async function create(s: TestServer, profile: Use, extra: Record<string, unknown> = {}) {
  return postJson(s, '/api/create_workflow_session', { workflow_name: 'profiles', profile, ...extra });
}

async function started(s: TestServer, profile: Use): Promise<{ session_id: string; connect_url: string }> {
  const res = await create(s, profile);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { session_id: string; connect_url: string };
}

const visit = (connectUrl: string, path: string) => visitLoginSite(connectUrl, site, path);
const stateIn = (connectUrl: string) => loginStateIn(connectUrl, site);

const end = async (s: TestServer, id: string) =>
  expect((await s.api(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);

async function profile(s: TestServer, name: string): Promise<Profile> {
  const res = await s.api(`/api/profiles/${name}`);
  expect(res.status).toBe(200);
  return Profile.parse(await res.json());
}

async function eventsOf(s: TestServer, id: string): Promise<SessionEvent[]> {
  const res = await s.api(`/api/session/${id}/events?limit=1000`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: SessionEvent[] }).events;
}

const savedEvent = (s: TestServer, id: string) =>
  waitForAsync('the ProfileSaved event', async () =>
    (await eventsOf(s, id)).find(
      (e): e is Extract<SessionEvent, { event: 'ProfileSaved' }> => e.event === 'ProfileSaved',
    ),
  );

describe('a login kept in a profile', () => {
  it('signed in once with persist, every later session starts signed in: HttpOnly cookie, localStorage and IndexedDB', async () => {
    const made = await postJson(server, '/api/profiles', { name: 'shop' });
    expect(made.status).toBe(201);
    expect(Profile.parse(await made.json())).toMatchObject({
      name: 'shop',
      version: null,
      versions: [],
      in_use_by: [],
    });

    const first = await started(server, { name: 'shop', persist: true });
    expect(await visit(first.connect_url, '/login')).toBe('signed in');
    expect((await profile(server, 'shop')).in_use_by).toEqual([
      expect.objectContaining({ session_id: first.session_id, persist: true }),
    ]);

    // One persisting session at a time, any number read-only; no delete while in use.
    const recorded = async () =>
      ((await (await server.api('/api/sessions?limit=100')).json()) as { items: unknown[] }).items.length;
    const before = await recorded();
    const second = await create(server, { name: 'shop', persist: true });
    expect(second.status).toBe(409);
    expect(((await second.json()) as { message: string }).message).toContain(first.session_id);
    // Refused before anything is recorded.
    expect(await recorded()).toBe(before);
    const deleting = await server.api('/api/profiles/shop', { method: 'DELETE' });
    expect(deleting.status).toBe(409);
    expect(((await deleting.json()) as { message: string }).message).toContain(first.session_id);
    const reader = await started(server, { name: 'shop' });
    await end(server, reader.session_id);

    await end(server, first.session_id);
    expect(await savedEvent(server, first.session_id)).toMatchObject({ saved: true, version: 1, profile: 'shop' });
    const saved = await profile(server, 'shop');
    expect(saved).toMatchObject({ version: 1, in_use_by: [] });
    expect(saved.versions[0]).toMatchObject({ source: 'session', session_id: first.session_id });
    expect(saved.size).toBeGreaterThan(0);

    const later = await started(server, { name: 'shop' });
    expect(await stateIn(later.connect_url)).toEqual({
      cookie: true,
      localStorage: LOGIN.token,
      indexedDb: LOGIN.record,
    });
    await end(server, later.session_id);
    // Read-only: the profile did not move.
    expect((await profile(server, 'shop')).version).toBe(1);

    // A session without it starts signed out (the site and the check are not what passes).
    const without = await postJson(server, '/api/create_workflow_session', { workflow_name: 'profiles' });
    const plain = (await without.json()) as { session_id: string; connect_url: string };
    expect(await stateIn(plain.connect_url)).toEqual({ cookie: false, localStorage: null, indexedDb: null });
    await end(server, plain.session_id);

    // Nothing the store holds shows the login in clear.
    const bytes = await storeBytes(server);
    for (const secret of Object.values(LOGIN)) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  it('imports a Playwright storage state as version 1, and a session sees its cookie', async () => {
    const state = {
      cookies: [
        {
          name: 'sid',
          value: LOGIN.cookie,
          domain: '127.0.0.1',
          path: '/',
          expires: Math.floor(Date.now() / 1000) + 3600,
          httpOnly: true,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [{ origin: site.origin, localStorage: [{ name: 'token', value: LOGIN.token }] }],
    };
    // A name of this try's own: a retry of this test finds the first try's profile there.
    const name = `imported.v1-${Date.now().toString(36)}`;
    const made = await postJson(server, '/api/profiles', { name, storage_state: JSON.stringify(state) });
    expect(made.status).toBe(201);
    expect(Profile.parse(await made.json()).versions).toEqual([
      expect.objectContaining({ version: 1, source: 'import' }),
    ]);
    const s = await started(server, { name });
    expect(await stateIn(s.connect_url)).toMatchObject({ cookie: true, localStorage: LOGIN.token });
    await end(server, s.session_id);
    expect((await storeBytes(server)).includes(Buffer.from(LOGIN.cookie))).toBe(false);
  });

  it('refuses bad names, unknown profiles and storage states that are not one, changing nothing', async () => {
    for (const name of ['', 'a b', '../x', 'x/y', 'é', 'a'.repeat(65), '..']) {
      const res = await postJson(server, '/api/profiles', { name });
      expect(res.status, name).toBe(422);
      expect(((await res.json()) as { message: string }).message).toMatch(/name/);
    }
    const dup = await postJson(server, '/api/profiles', { name: 'shop' });
    expect(dup.status).toBe(409);
    const notState = await postJson(server, '/api/profiles', { name: 'bad-state', storage_state: '{"cookies": 3}' });
    expect(notState.status).toBe(422);
    expect(((await notState.json()) as { message: string }).message).toMatch(/storage_state/);
    expect((await server.api('/api/profiles/bad-state')).status).toBe(404);

    const active = server.app.sessions.active;
    const unknown = await create(server, { name: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain('nobody');
    expect(server.app.sessions.active).toBe(active);
    const badUse = await create(server, { name: 'no/slash' });
    expect(badUse.status).toBe(422);
  });

  it('a tampered version fails the start with a clear message; restoring an earlier one works', async () => {
    await postJson(server, '/api/profiles', { name: 'tamper' });
    for (const page of ['/login', '/check']) {
      const s = await started(server, { name: 'tamper', persist: true });
      await visit(s.connect_url, page);
      await end(server, s.session_id);
      await savedEvent(server, s.session_id);
    }
    expect((await profile(server, 'tamper')).version).toBe(2);
    const { blob_id } = (await server.app.db.get<{ blob_id: string }>(
      "SELECT blob_id FROM profile_versions WHERE profile = 'tamper' AND version = 2",
    ))!;
    const chunk = (await server.app.db.get<{ data: Buffer }>(
      'SELECT data FROM profile_chunks WHERE blob_id = ? AND seq = 0',
      [blob_id],
    ))!;
    const flipped = Buffer.from(chunk.data);
    flipped[flipped.length - 1]! ^= 1;
    await server.app.db.run('UPDATE profile_chunks SET data = ? WHERE blob_id = ? AND seq = 0', [flipped, blob_id]);

    const active = server.app.sessions.active;
    const refused = await create(server, { name: 'tamper' });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { message: string }).message).toMatch(/tamper \(version 2\) could not be read/);
    await waitForAsync('the refused start to leave nothing', () =>
      server.app.sessions.active === active ? true : undefined,
    );
    expect((await profile(server, 'tamper')).in_use_by).toEqual([]);

    // A cut-short version (its last chunk gone) is refused the same way.
    await server.app.db.run('UPDATE profile_chunks SET data = ? WHERE blob_id = ? AND seq = 0', [chunk.data, blob_id]);
    const last = (await server.app.db.get<{ seq: number }>(
      'SELECT max(seq) AS seq FROM profile_chunks WHERE blob_id = ?',
      [blob_id],
    ))!.seq;
    await server.app.db.run('DELETE FROM profile_chunks WHERE blob_id = ? AND seq = ?', [blob_id, last]);
    expect((await create(server, { name: 'tamper' })).status).toBe(422);

    const restored = await postJson(server, '/api/profiles/tamper/restore', { version: 1 });
    expect(restored.status).toBe(200);
    const after = Profile.parse(await restored.json());
    expect(after.version).toBe(3);
    expect(after.versions[0]).toMatchObject({ source: 'restore', restored_from: 1 });
    expect((await postJson(server, '/api/profiles/tamper/restore', { version: 9 })).status).toBe(404);
    const s = await started(server, { name: 'tamper' });
    expect(await stateIn(s.connect_url)).toMatchObject({ cookie: true, localStorage: LOGIN.token });
    await end(server, s.session_id);
  });

  it('keeps the last 3 versions, and a crashed browser saves nothing', async () => {
    await postJson(server, '/api/profiles', { name: 'history' });
    for (let i = 0; i < 4; i++) {
      const s = await started(server, { name: 'history', persist: true });
      await end(server, s.session_id);
      await savedEvent(server, s.session_id);
    }
    const kept = await profile(server, 'history');
    expect(kept.versions.map((v) => v.version)).toEqual([4, 3, 2]);
    const orphans = await server.app.db.get<{ n: number }>(
      `SELECT count(*) AS n FROM profile_chunks WHERE profile = 'history'
       AND blob_id NOT IN (SELECT blob_id FROM profile_versions WHERE profile = 'history')`,
    );
    expect(orphans?.n).toBe(0);

    const doomed = await started(server, { name: 'history', persist: true });
    process.kill(browserProcess(server.dataDir, doomed.session_id).pid, 'SIGKILL');
    expect(await savedEvent(server, doomed.session_id)).toMatchObject({ saved: false, reason: /crashed/ });
    expect((await profile(server, 'history')).version).toBe(4);
    // The lock went with it: a new persisting session may start.
    const next = await started(server, { name: 'history', persist: true });
    await end(server, next.session_id);
  });

  it('a save over PROFILE_MAX_BYTES keeps the previous version and says why in the session events', async () => {
    const small = await startServer({ RECORD_SESSIONS: 'off', PROFILE_MAX_BYTES: String(256 * 1024) });
    try {
      await postJson(small, '/api/profiles', { name: 'big' });
      const first = await started(small, { name: 'big', persist: true });
      await end(small, first.session_id);
      expect(await savedEvent(small, first.session_id)).toMatchObject({ saved: true, version: 1 });
      const second = await started(small, { name: 'big', persist: true });
      expect(await visit(second.connect_url, '/bulk?kb=2048')).toBe('bulk written');
      await end(small, second.session_id);
      const said = await savedEvent(small, second.session_id);
      expect(said).toMatchObject({ saved: false, version: null });
      expect(said.reason).toMatch(/PROFILE_MAX_BYTES/);
      const kept = await profile(small, 'big');
      expect(kept.versions.map((v) => v.version)).toEqual([1]);
      const left = await small.app.db.get<{ n: number }>(
        "SELECT count(*) AS n FROM profile_chunks WHERE profile = 'big' AND blob_id NOT IN (SELECT blob_id FROM profile_versions)",
      );
      expect(left?.n).toBe(0);
    } finally {
      await closeLeavingNothing(small);
    }
  });

  it('runs start from the profile their workflow names or run_workflow gives; agent and MCP sessions take one too', async () => {
    // The run succeeds only if its browser is signed in: the check page's title says so.
    const signedIn = (name: string) => ({
      name,
      flow: {
        title: name,
        steps: [
          { type: 'navigate', url: `${site.origin}/check` },
          { type: 'waitForExpression', expression: `document.title.includes('"cookie":true')`, timeout: 10_000 },
        ],
      },
    });
    const named = await createWorkflow(server, { ...signedIn('signed in by its profile'), profile: { name: 'shop' } });
    const workflow = (await (await server.api(`/api/workflows/${named}`)).json()) as { profile: unknown };
    expect(workflow.profile).toEqual({ name: 'shop', persist: false });
    const byWorkflow = await runWorkflow(server, { workflow_id: named });
    expect(byWorkflow.status).toBe(200);
    expect((await untilCompleted(server, byWorkflow.body.session_id!)).status).toBe('succeeded');

    const plain = await createWorkflow(server, signedIn('signed in by the form'));
    const byForm = await runWorkflow(server, { workflow_id: plain, profile: 'shop', persist_profile: 'false' });
    expect((await untilCompleted(server, byForm.body.session_id!)).status).toBe('succeeded');
    // Without a profile the same flow fails: the check is real.
    const without = await runWorkflow(server, { workflow_id: plain });
    expect((await untilCompleted(server, without.body.session_id!)).status).toBe('failed');

    const fd = new FormData();
    fd.append('workflow_id', plain);
    fd.append('profile', 'nobody');
    const unknown = await server.api('/api/run_workflow', { method: 'POST', body: fd });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain('nobody');

    const editor = await postJson(server, '/api/start_editor_session', {
      name: 'agent with a profile',
      url: `${site.origin}/`,
      profile: { name: 'shop' },
    });
    expect(editor.status, await editor.clone().text()).toBe(200);
    const agentSession = (await editor.json()) as { session_id: string; connect_url: string };
    expect(await stateIn(agentSession.connect_url)).toMatchObject({ cookie: true, indexedDb: LOGIN.record });
    await end(server, agentSession.session_id);

    const mcp = await mcpClient(server);
    try {
      const made = await callTool(mcp, 'session_create', { workflow_name: 'mcp profile', profile: { name: 'shop' } });
      expect(made.isError, textOf(made)).toBeFalsy();
      const { session_id } = JSON.parse(textOf(made)) as { session_id: string };
      const opened = await callTool(mcp, 'browser_navigate', { session_id, url: `${site.origin}/check` });
      expect(opened.isError, textOf(opened)).toBeFalsy();
      await expect
        .poll(async () => textOf(await callTool(mcp, 'browser_snapshot', { session_id })), { timeout: 30_000 })
        .toContain(LOGIN.record);
      await callTool(mcp, 'session_close', { session_id });
    } finally {
      await mcp.close();
    }
  });

  it('deletes a profile no session uses, with every version', async () => {
    await postJson(server, '/api/profiles', { name: 'gone' });
    const s = await started(server, { name: 'gone', persist: true });
    await end(server, s.session_id);
    await savedEvent(server, s.session_id);
    const res = await server.api('/api/profiles/gone', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect((await server.api('/api/profiles/gone')).status).toBe(404);
    const rows = await server.app.db.get<{ n: number }>(
      "SELECT count(*) AS n FROM profile_chunks WHERE profile = 'gone'",
    );
    expect(rows?.n).toBe(0);
    const list = (await (await server.api('/api/profiles')).json()) as { profiles: Profile[] };
    expect(list.profiles.map((p) => p.name)).not.toContain('gone');
  });
});
