import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { SimplexClient } from 'simplex-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStatus } from '../contract/runControl.ts';
import { WebhookEvent } from '../contract/runs.ts';
import { CreateWorkflowSessionRequest, StorageState } from '../contract/sessions.ts';
import { artifactsDirOf } from '../server/artifacts/paths.ts';
import { chooseExpired } from '../server/artifacts/retention.ts';
import type { BusEvents } from '../server/events/bus.ts';
import {
  BLOB_NAME,
  BLOB_TEXT,
  LINKED_BYTES,
  LINKED_NAME,
  startDownloadSite,
  type DownloadSite,
} from './fixtures/downloadSite.ts';
import { startReceiver, type Receiver } from './fixtures/webhookReceiver.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { openStoreOf } from './helpers/testDatabase.ts';
import { waitForAsync } from './helpers/wait.ts';
import { unzip } from './helpers/zip.ts';

// Session artifacts (issue 11): the files a session's pages download, in its status, its run's
// webhook and a zip; its storage state at the end, accepted as the next session's session_data;
// retention. Against the real server, with real sessions.
let server: TestServer;
let site: DownloadSite;
let hooks: Receiver;
let client: SimplexClient;
const downloads: BusEvents['session.download'][] = [];
beforeAll(async () => {
  [server, site, hooks] = await Promise.all([
    startServer({ RECORD_SESSIONS: 'off' }),
    startDownloadSite(),
    startReceiver([200]),
  ]);
  client = new SimplexClient({ apiKey: server.apiKey, baseURL: `${server.url}/api`, maxRetries: 0 });
  server.app.bus.on('session.download', (e) => downloads.push(e));
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await hooks?.close();
});

async function createSession(
  s: TestServer,
  sessionData?: string,
): Promise<{ session_id: string; connect_url: string }> {
  const body: CreateWorkflowSessionRequest = {
    workflow_name: 'artifacts',
    ...(sessionData ? { session_data: sessionData } : {}),
  };
  const res = await postJson(s, '/api/create_workflow_session', body);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { session_id: string; connect_url: string };
}

const endSession = async (s: TestServer, id: string) =>
  expect((await s.api(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);

async function bytesOf(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

describe('downloads', () => {
  it('a run whose page downloads a file by a link and one it builds as a Blob: both in the status, the webhook, the zip and one by one', async () => {
    const created = await postJson(server, '/api/workflows', {
      name: 'downloads',
      flow: {
        title: 'downloads',
        steps: [
          { type: 'navigate', url: '{{site}}/downloads' },
          { type: 'click', selectors: [['#link']], offsetX: 5, offsetY: 5 },
          { type: 'click', selectors: [['#blob']], offsetX: 5, offsetY: 5 },
          // The page says 'done' a moment after both clicks: a loaded host gets its time for that.
          { type: 'waitForExpression', expression: "document.title === 'done'", timeout: 30_000 },
        ],
      },
      variables: [{ name: 'site', type: 'string', required: true }],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const workflowId = ((await created.json()) as { id: string }).id;
    const before = hooks.received.length;
    const runAt = Date.now();
    const run = await client.workflows.run(workflowId, { variables: { site: site.origin }, webhookUrl: hooks.url });
    const sessionId = run.session_id;
    const status = await waitForAsync(
      'the run to end',
      async () => {
        const s = SessionStatus.parse(await client.getSessionStatus(sessionId));
        return s.in_progress ? undefined : s;
      },
      60_000,
    );
    expect(status.success).toBe(true);
    const expected = new Map([
      [LINKED_NAME, LINKED_BYTES],
      [BLOB_NAME, Buffer.from(BLOB_TEXT)],
    ]);
    expect(status.file_metadata.map((f) => f.filename).sort()).toEqual([...expected.keys()].sort());
    for (const f of status.file_metadata) {
      expect(f.file_size).toBe(expected.get(f.filename)!.length);
      // Downloaded during the run: after it was asked for (less a second: a file's mtime is coarser than Date.now()).
      expect(Date.parse(f.download_timestamp)).toBeGreaterThanOrEqual(runAt - 1_000);
      expect(Date.parse(f.download_timestamp)).toBeLessThanOrEqual(Date.now());
      // download_url works without the key (a signed token), and only ever as an attachment.
      expect(f.download_url).toMatch(new RegExp(`^${server.url}/api/session/${sessionId}/files/`));
      const res = await fetch(f.download_url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await bytesOf(res)).equals(expected.get(f.filename)!)).toBe(true);
    }
    expect(downloads.filter((d) => d.session_id === sessionId)).toEqual(
      expect.arrayContaining([
        { session_id: sessionId, filename: LINKED_NAME, file_size: LINKED_BYTES.length, ok: true },
        { session_id: sessionId, filename: BLOB_NAME, file_size: Buffer.byteLength(BLOB_TEXT), ok: true },
      ]),
    );

    // The run's final webhook lists the same files.
    const final = await waitForAsync('run.completed webhook', () =>
      hooks.received.slice(before).find((r) => r.body.includes('"run.completed"')),
    );
    const event = WebhookEvent.parse(JSON.parse(final.body));
    if (event.type !== 'run.completed') throw new Error('not run.completed');
    expect(event.file_metadata.map((f) => [f.filename, f.file_size]).sort()).toEqual(
      status.file_metadata.map((f) => [f.filename, f.file_size]).sort(),
    );

    // A zip of all, streamed; the same bytes through Simplex's client.
    const zipRes = await server.api(`/api/download_session_files?session_id=${sessionId}`);
    expect(zipRes.status).toBe(200);
    expect(zipRes.headers.get('content-type')).toBe('application/zip');
    const zip = await unzip(await bytesOf(zipRes));
    expect([...zip.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, bytes] of expected) expect(zip.get(name)!.equals(bytes)).toBe(true);
    const viaClient = await client.downloadSessionFiles(sessionId);
    expect(Buffer.isBuffer(viaClient)).toBe(true);
    const clientZip = await unzip(viaClient);
    for (const [name, bytes] of expected) expect(clientZip.get(name)!.equals(bytes)).toBe(true);

    // One file by name; a name it does not have is a 404 saying so.
    const one = await server.api(
      `/api/download_session_files?session_id=${sessionId}&filename=${encodeURIComponent(LINKED_NAME)}`,
    );
    expect(one.status).toBe(200);
    expect((await bytesOf(one)).equals(LINKED_BYTES)).toBe(true);
    const missing = await server.api(`/api/download_session_files?session_id=${sessionId}&filename=nope.txt`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toMatch(/no downloaded file named "nope.txt"/);
    const unknown = await server.api('/api/download_session_files?session_id=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/Session not found/);
  });

  it('a session that downloaded nothing: empty file_metadata, and the zip is a 404 that says so', async () => {
    const s = await createSession(server);
    await endSession(server, s.session_id);
    const status = SessionStatus.parse(await client.getSessionStatus(s.session_id));
    expect(status.file_metadata).toEqual([]);
    const res = await server.api(`/api/download_session_files?session_id=${s.session_id}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toMatch(/has no downloaded files/);
  });

  it("a Playwright client's download lands in the session too, also after the client left", async () => {
    const s = await createSession(server);
    const browser = await chromium.connectOverCDP(s.connect_url);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    await page.goto(`${site.origin}/downloads`);
    const download = page.waitForEvent('download');
    await page.click('#link');
    expect((await download).suggestedFilename()).toBe(LINKED_NAME);
    await waitForAsync('the file to be kept', () => downloads.find((d) => d.session_id === s.session_id && d.ok));
    await browser.close();
    // Chromium drops the client's download settings when it disconnects; the profile's own hold.
    const again = await chromium.connectOverCDP(s.connect_url);
    const cdp = await again.newBrowserCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'default' });
    const page2 = again.contexts()[0]!.pages()[0]!;
    await page2.click('#blob');
    await waitForAsync('the second file to be kept', () =>
      downloads.find((d) => d.session_id === s.session_id && d.filename === BLOB_NAME && d.ok),
    );
    // The browser names the next one the same (the first left its folder): kept beside it.
    await page2.click('#blob');
    await waitForAsync('the third file to be kept', () =>
      downloads.find((d) => d.session_id === s.session_id && d.filename === 'notes (2).txt' && d.ok),
    );
    await again.close();
    await endSession(server, s.session_id);
    expect(
      server.app.artifacts
        .files(s.session_id)
        .map((f) => f.filename)
        .sort(),
    ).toEqual([BLOB_NAME, 'notes (2).txt', LINKED_NAME].sort());
  });
});

describe('storage state out', () => {
  it('a session that logged in leaves a storage state; the next session created with it is still logged in', async () => {
    const first = await createSession(server);
    let browser: Browser = await chromium.connectOverCDP(first.connect_url);
    let page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    // Two origins: 127.0.0.1 is no longer shown at the end (its localStorage is read in a reader
    // tab), localhost still is (read from the open page).
    const other = site.origin.replace('127.0.0.1', 'localhost');
    await page.goto(`${site.origin}/login`);
    await page.goto(`${site.origin}/me`);
    expect(await page.title()).toBe('Welcome back');
    await page.goto(`${other}/login`);
    await page.goto(`${other}/me`);
    expect(await page.title()).toBe('Welcome back');
    const live = await server.api(`/api/get_session_store/${first.session_id}`);
    expect(live.status).toBe(404);
    expect(((await live.json()) as { message: string }).message).toMatch(/written when the session ends/);
    await browser.close();
    await endSession(server, first.session_id);

    const res = await server.api(`/api/get_session_store/${first.session_id}`);
    expect(res.status).toBe(200);
    // Served decrypted; kept sealed: the session's cookie is nowhere in DATA_DIR in clear.
    const onDisk = fs.readFileSync(path.join(artifactsDirOf(server.dataDir, first.session_id), 'storage-state.sealed'));
    expect(onDisk.includes(Buffer.from('s3cr3t-session'))).toBe(false);
    const stored = StorageState.parse(await res.json());
    expect(stored.cookies).toContainEqual(
      expect.objectContaining({
        name: 'sid',
        value: 's3cr3t-session',
        domain: '127.0.0.1',
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
      }),
    );
    expect(stored.cookies.find((c) => c.name === 'sid')!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(stored.cookies).toContainEqual(expect.objectContaining({ name: 'sid', domain: 'localhost' }));
    for (const origin of [site.origin, other]) {
      expect(stored.origins).toContainEqual({
        origin,
        localStorage: expect.arrayContaining([
          { name: 'user', value: 'ada' },
          { name: 'theme', value: 'dark' },
        ]),
      });
    }

    // Its JSON, unchanged, is the next session's session_data.
    const second = await createSession(server, JSON.stringify(stored));
    browser = await chromium.connectOverCDP(second.connect_url);
    page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    for (const origin of [site.origin, other]) {
      await page.goto(`${origin}/me`);
      expect(await page.title()).toBe('Welcome back');
      expect(await page.textContent('#user')).toBe('ada');
    }
    await browser.close();
    await endSession(server, second.session_id);

    expect((await server.api('/api/get_session_store/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});

describe('retention', () => {
  const hour = 3_600_000;
  const held = (sessionId: string, bytes: number, endedAgo: number | null) => ({
    sessionId,
    bytes,
    endedAt: endedAgo === null ? null : new Date(Date.now() - endedAgo),
  });
  const limits = { maxBytes: 100, ttlMs: 7 * 24 * hour, graceMs: 60_000 };

  it('chooses past the age limit first, then the oldest until under the cap; never live or just ended', () => {
    expect(
      chooseExpired(
        [held('old', 10, 8 * 24 * hour), held('a', 60, 3 * hour), held('b', 60, 2 * hour), held('c', 60, hour)],
        limits,
      ),
    ).toEqual(['old', 'a', 'b']);
    expect(chooseExpired([held('live', 500, null), held('fresh', 500, 1000), held('a', 10, hour)], limits)).toEqual([
      'a',
    ]);
    expect(chooseExpired([held('a', 60, hour), held('b', 30, hour / 2)], limits)).toEqual([]);
    expect(chooseExpired([held('a', 1e12, 30 * 24 * hour)], { maxBytes: 0, ttlMs: 0, graceMs: 0 })).toEqual([]);
  });

  it("over a small cap the oldest ended sessions' artifacts go, a live one's stay; DELETE removes them at once (409 while live)", async () => {
    const own = await startServer({ ARTIFACTS_MAX_BYTES: '1', RECORD_SESSIONS: 'off' });
    try {
      const db = own.app.db;
      const backdate = (id: string, ago: number) =>
        db.run('UPDATE sessions SET ended_at = ? WHERE id = ?', [new Date(Date.now() - ago).toISOString(), id]);
      const oldest = await createSession(own);
      await endSession(own, oldest.session_id);
      const older = await createSession(own);
      await endSession(own, older.session_id);
      await backdate(oldest.session_id, 2 * hour);
      await backdate(older.session_id, hour);
      const live = await createSession(own);
      const browser = await chromium.connectOverCDP(live.connect_url);
      const page = browser.contexts()[0]!.pages()[0]!;
      await page.goto(`${site.origin}/downloads`);
      await page.click('#link');
      await waitForAsync("the live session's file", () =>
        own.app.artifacts.files(live.session_id).length ? true : undefined,
      );
      for (const id of [oldest.session_id, older.session_id])
        expect(fs.existsSync(path.join(artifactsDirOf(own.dataDir, id), 'storage-state.sealed'))).toBe(true);

      expect((await own.app.artifacts.sweep()).sort()).toEqual([oldest.session_id, older.session_id].sort());
      expect(fs.existsSync(artifactsDirOf(own.dataDir, oldest.session_id))).toBe(false);
      expect(fs.existsSync(artifactsDirOf(own.dataDir, older.session_id))).toBe(false);
      expect(own.app.artifacts.files(live.session_id).map((f) => f.filename)).toEqual([LINKED_NAME]);
      expect((await own.api(`/api/get_session_store/${oldest.session_id}`)).status).toBe(404);

      const refused = await own.api(`/api/sessions/${live.session_id}/artifacts`, { method: 'DELETE' });
      expect(refused.status).toBe(409);
      await browser.close();
      await endSession(own, live.session_id);
      // Just ended: the schedule leaves it for a minute (its recording may still be finishing); DELETE does not wait.
      expect(await own.app.artifacts.sweep()).toEqual([]);
      const removed = await own.api(`/api/sessions/${live.session_id}/artifacts`, { method: 'DELETE' });
      expect(removed.status).toBe(204);
      expect(fs.existsSync(artifactsDirOf(own.dataDir, live.session_id))).toBe(false);
      expect(
        SessionStatus.parse(await (await own.api(`/api/session/${live.session_id}/status`)).json()).file_metadata,
      ).toEqual([]);
      expect(
        (await own.api('/api/sessions/00000000-0000-4000-8000-000000000000/artifacts', { method: 'DELETE' })).status,
      ).toBe(404);
    } finally {
      await own.close();
    }
  }); // three browsers started one after another: more than a minute on a loaded host (the 180 s default)

  it('on start, artifacts older than ARTIFACTS_TTL_DAYS go', async () => {
    let own = await startServer({ RECORD_SESSIONS: 'off' });
    const dataDir = own.dataDir;
    const stale = await createSession(own);
    await endSession(own, stale.session_id);
    const recent = await createSession(own);
    await endSession(own, recent.session_id);
    await own.close();
    const db = await openStoreOf(dataDir);
    await db.run('UPDATE sessions SET ended_at = ? WHERE id = ?', [
      new Date(Date.now() - 8 * 24 * 3_600_000).toISOString(),
      stale.session_id,
    ]);
    await db.run('UPDATE sessions SET ended_at = ? WHERE id = ?', [
      new Date(Date.now() - 3_600_000).toISOString(),
      recent.session_id,
    ]);
    await db.close();
    own = await startServer({ RECORD_SESSIONS: 'off', ARTIFACTS_TTL_DAYS: '7' }, dataDir);
    try {
      expect(fs.existsSync(artifactsDirOf(dataDir, stale.session_id))).toBe(false);
      expect(fs.existsSync(artifactsDirOf(dataDir, recent.session_id))).toBe(true);
    } finally {
      await own.close();
    }
  });
});
