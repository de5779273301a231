import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionStatus } from '../../contract/runControl.ts';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { artifactsDirOf } from '../../server/artifacts/paths.ts';
import { sessionDirsOf } from '../../server/sessions/isolation/sessionDirs.ts';
import { isSafeFileName, MAX_NAME_BYTES, safeFileName, uniqueName } from '../../server/artifacts/safeNames.ts';
import type { BusEvents } from '../../server/events/bus.ts';
import { signToken } from '../../server/secrets/signedTokens.ts';
import { LINKED_BYTES, LINKED_NAME, startDownloadSite, type DownloadSite } from '../fixtures/downloadSite.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { waitForAsync } from '../helpers/wait.ts';
import { unzip } from '../helpers/zip.ts';

/**
 * Attacks on session artifacts (issue 11). The page's code runs as the session's user, who owns
 * the downloads folder: whatever it plants there (links to the host's secrets, FIFOs, hard links,
 * a swapped folder), whatever names it suggests, and whatever it downloads, nothing outside the
 * session's own files is copied, served or written, and a download over the cap is cut.
 */
const CAP = 2 * 1024 * 1024;
let server: TestServer;
let site: DownloadSite;
const opened: Browser[] = [];
const events: BusEvents['session.download'][] = [];
const shadowBefore = fs.statSync('/etc/shadow');

beforeAll(async () => {
  [server, site] = await Promise.all([
    startServer({ MAX_DOWNLOAD_BYTES: String(CAP), RECORD_SESSIONS: 'off' }),
    startDownloadSite(),
  ]);
  server.app.bus.on('session.download', (e) => events.push(e));
});
afterAll(async () => {
  for (const b of opened) await b.close().catch(() => undefined);
  await server?.close();
  await site?.close();
});

async function createSession() {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'artifact attacks' });
  expect(res.status).toBe(200);
  const s = CreateWorkflowSessionResponse.parse(await res.json());
  const live = server.app.sessions.get(s.session_id)!;
  expect(live.user, 'these attacks need the service to run as root with session users').not.toBeNull();
  return { ...s, downloads: live.folders.downloads, uid: live.user!.uid, gid: live.user!.gid };
}

async function drive(connectUrl: string): Promise<Page> {
  const browser = await chromium.connectOverCDP(connectUrl);
  opened.push(browser);
  const context = browser.contexts()[0]!;
  return context.pages()[0] ?? (await context.newPage());
}

/** Click a link to `href` on a page of the site (no `download` attribute: the response's own name counts). */
async function download(page: Page, href: string): Promise<void> {
  await page.evaluate((url) => {
    const a = document.createElement('a');
    a.href = url;
    document.body.append(a);
    a.click();
    a.remove();
  }, href);
}

const endSession = async (id: string) =>
  expect((await server.api(`/api/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);
const eventsOf = (id: string) => events.filter((e) => e.session_id === id);

/** Every file under `dir`, as paths relative to it (links listed, never followed). */
function walk(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p, base) : [path.relative(base, p)];
  });
}

describe('what the page plants in its downloads folder', () => {
  it('symlinks to /etc/shadow and the database, hard links, a FIFO and a socket: none is copied or served, and the end does not hang', async () => {
    const s = await createSession();
    const dl = s.downloads;
    const own = (p: string) => fs.lchownSync(p, s.uid, s.gid);
    fs.symlinkSync('/etc/shadow', path.join(dl, 'shadow.txt'));
    fs.symlinkSync(path.join(server.dataDir, 'browserdesk.db'), path.join(dl, 'browserdesk.db'));
    fs.symlinkSync('/etc', path.join(dl, 'etc'));
    for (const name of ['shadow.txt', 'browserdesk.db', 'etc']) own(path.join(dl, name));
    // A hard link to a root file (never chowned: that would chown /etc/shadow itself).
    fs.linkSync('/etc/shadow', path.join(dl, 'hard-shadow'));
    // A file of the session's own with a second name elsewhere: refused too (that name may be anywhere).
    fs.writeFileSync(path.join(dl, 'twice.txt'), 'two names');
    own(path.join(dl, 'twice.txt'));
    fs.linkSync(path.join(dl, 'twice.txt'), path.join(sessionDirsOf(server.dataDir, s.session_id).home, 'second-name'));
    execFileSync('mkfifo', [path.join(dl, 'fifo')]);
    own(path.join(dl, 'fifo'));
    const sock = net.createServer();
    await new Promise<void>((r) => sock.listen(path.join(dl, 'sock'), r));
    own(path.join(dl, 'sock'));
    fs.mkdirSync(path.join(dl, 'folder'));
    own(path.join(dl, 'folder'));
    // A plain file of the session's own is kept: the sweep does run.
    fs.writeFileSync(path.join(dl, 'fine.txt'), 'fine');
    own(path.join(dl, 'fine.txt'));

    await endSession(s.session_id);
    sock.close();

    // The sweep goes in name order: fine.txt kept after fifo means the FIFO did not block it.
    expect(server.app.artifacts.files(s.session_id).map((f) => f.filename)).toEqual(['fine.txt']);
    const refused = eventsOf(s.session_id).filter((e) => !e.ok);
    const reasonOf = (name: string) => refused.find((e) => e.filename === name)?.reason;
    expect(reasonOf('shadow.txt')).toMatch(/symbolic link/);
    expect(reasonOf('browserdesk.db')).toMatch(/symbolic link/);
    expect(reasonOf('etc')).toMatch(/symbolic link/);
    expect(reasonOf('hard-shadow')).toMatch(/not the session user's own file|hard links/);
    expect(reasonOf('twice.txt')).toMatch(/hard links/);
    expect(reasonOf('fifo')).toMatch(/FIFO/);
    expect(reasonOf('sock')).toMatch(/socket|not a regular file/);
    expect(reasonOf('folder')).toMatch(/folder/);

    // Nothing of the host is in the artifacts, nor served under any spelling.
    const shadow = fs.readFileSync('/etc/shadow');
    const dir = artifactsDirOf(server.dataDir, s.session_id);
    for (const f of walk(dir)) {
      const bytes = fs.readFileSync(path.join(dir, f));
      expect(bytes.equals(shadow)).toBe(false);
      expect(bytes.subarray(0, 15).toString()).not.toBe('SQLite format 3');
    }
    for (const name of [
      'shadow.txt',
      'browserdesk.db',
      '../../browserdesk.db',
      '..',
      '../files/fine.txt',
      'hard-shadow',
      'fifo',
    ]) {
      const res = await server.api(
        `/api/download_session_files?session_id=${s.session_id}&filename=${encodeURIComponent(name)}`,
      );
      expect(res.status, name).toBe(404);
      const direct = await server.api(`/api/session/${s.session_id}/files/${encodeURIComponent(name)}`);
      expect([404, 422], name).toContain(direct.status);
    }
    expect(fs.statSync('/etc/shadow')).toMatchObject({
      uid: shadowBefore.uid,
      mode: shadowBefore.mode,
      size: shadowBefore.size,
    });
  });

  it("a downloads folder swapped for a link to /etc, or for a folder that is not the session user's, is not read", async () => {
    for (const swap of ['link', 'root folder'] as const) {
      const s = await createSession();
      const dl = s.downloads;
      fs.writeFileSync(path.join(dl, 'kept-before-swap.txt'), 'x');
      fs.lchownSync(path.join(dl, 'kept-before-swap.txt'), s.uid, s.gid);
      fs.renameSync(dl, `${dl}.moved`);
      if (swap === 'link') {
        fs.symlinkSync('/etc', dl);
        fs.lchownSync(dl, s.uid, s.gid);
      } else {
        fs.mkdirSync(dl);
        fs.copyFileSync('/etc/hostname', path.join(dl, 'hostname'));
      }
      await endSession(s.session_id);
      expect(server.app.artifacts.files(s.session_id), swap).toEqual([]);
    }
  });
});

describe('names the page suggests', () => {
  it('are made one safe component: no folders, dot names, control or reordering characters; bounded; unique ignoring case', () => {
    const cases: [string, string][] = [
      ['../../x', 'x'],
      ['..', 'download'],
      ['.', 'download'],
      ['', 'download'],
      ['a\u0000b.txt', 'ab.txt'],
      ['/etc/passwd', 'passwd'],
      ['C:\\Windows\\evil.dll', 'evil.dll'],
      ['.bashrc', 'bashrc'],
      ['...hidden...', 'hidden'],
      ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
      ['tab\there\nnewline', 'tabherenewline'],
      ['a<b>:c|d?*.txt', 'a_b__c_d__.txt'],
      ['con.txt', '_con.txt'],
      ['résumé 📄.pdf', 'résumé 📄.pdf'],
      ['lone \ud800 surrogate', 'lone \ufffd surrogate'],
    ];
    for (const [given, kept] of cases) expect(safeFileName(given), JSON.stringify(given)).toBe(kept);
    const long = safeFileName(`${'ж'.repeat(500)}.txt`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(long.endsWith('.txt')).toBe(true);
    const taken = new Set<string>();
    expect(['Report.pdf', 'report.PDF', 'report.pdf'].map((n) => uniqueName(n, taken))).toEqual([
      'Report.pdf',
      'report (2).PDF',
      'report (3).pdf',
    ]);
    expect(uniqueName(long, taken)).toBe(long);
    const again = uniqueName(long, taken);
    expect(Buffer.byteLength(again)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(again.endsWith(' (2).txt')).toBe(true);
    for (const bad of ['..', '.', 'a/b', '', '.x', 'x\u0000']) expect(isSafeFileName(bad), bad).toBe(false);
  });

  it("downloaded through a real page: every kept name is safe, the files sit only in the session's artifacts, and the zip has no path in it", async () => {
    const topBefore = fs.readdirSync(server.dataDir).sort();
    const s = await createSession();
    const page = await drive(s.connect_url!);
    await page.goto(`${site.origin}/downloads`);
    const names = [
      '../../escaped.txt',
      '..',
      'a\u0000b.txt',
      `${'x'.repeat(400)}.txt`,
      'résumé 📄.pdf',
      '.htaccess',
      'same.txt',
      'SAME.txt',
      'tab\tname.txt',
    ];
    // One at a time, each after the last one's outcome: the names are the attack here, not the
    // browser's handling of nine downloads at once on a loaded machine.
    for (const [i, name] of names.entries()) {
      await download(page, `/named?name=${encodeURIComponent(name)}`);
      await waitForAsync(
        `the outcome of download ${i + 1} (${JSON.stringify(name)})`,
        () => (eventsOf(s.session_id).length > i ? true : undefined),
        30_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; outcomes so far: ${JSON.stringify(eventsOf(s.session_id))}`);
      });
    }
    expect(eventsOf(s.session_id).filter((e) => !e.ok)).toEqual([]);
    await endSession(s.session_id);

    const kept = server.app.artifacts.files(s.session_id).map((f) => f.filename);
    expect(kept).toHaveLength(names.length);
    for (const name of kept) {
      expect(isSafeFileName(name), name).toBe(true);
      expect(name.startsWith('.') || /[/\\]/.test(name) || name.includes('\0')).toBe(false);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    }
    expect(new Set(kept.map((n) => n.toLowerCase())).size).toBe(kept.length);
    expect(kept).toContain('résumé 📄.pdf');

    // Written only inside the session's artifacts: DATA_DIR's own entries are what they were.
    expect(fs.readdirSync(server.dataDir).sort()).toEqual([...new Set([...topBefore, 'artifacts'])].sort());
    expect(walk(artifactsDirOf(server.dataDir, s.session_id)).sort()).toEqual(
      [...kept.map((n) => `files/${n}`), 'network.har', 'storage-state.sealed'].sort(),
    );
    expect(fs.existsSync(path.join(server.dataDir, 'escaped.txt'))).toBe(false);

    const status = SessionStatus.parse(await (await server.api(`/api/session/${s.session_id}/status`)).json());
    for (const f of status.file_metadata) {
      const res = await fetch(f.download_url);
      expect(res.status, f.filename).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(res.headers.get('content-security-policy')).toMatch(/sandbox/);
    }
    const zip = await unzip(
      Buffer.from(await (await server.api(`/api/download_session_files?session_id=${s.session_id}`)).arrayBuffer()),
    );
    expect([...zip.keys()].sort()).toEqual([...kept].sort());
    for (const entry of zip.keys()) expect(entry).not.toMatch(/(^|\/)\.\.(\/|$)|^\/|\\/);
  });
});

describe('signed download URLs', () => {
  it("open only their own session's files, only with the files scope, only unexpired and untampered", async () => {
    const [a, b] = [await createSession(), await createSession()];
    for (const s of [a, b]) {
      const page = await drive(s.connect_url!);
      await page.goto(`${site.origin}/downloads`);
      await page.click('#link');
      await waitForAsync('the file', () => (server.app.artifacts.files(s.session_id).length ? true : undefined));
      await endSession(s.session_id);
    }
    const urlOf = async (id: string) =>
      SessionStatus.parse(await (await server.api(`/api/session/${id}/status`)).json()).file_metadata[0]!.download_url;
    const urlA = new URL(await urlOf(a.session_id));
    const tokenA = urlA.searchParams.get('token')!;
    const fileB = `${server.url}/api/session/${b.session_id}/files/${encodeURIComponent(LINKED_NAME)}`;
    const get = (url: string) => fetch(url).then((r) => r.status);

    expect(await get(urlA.href)).toBe(200);
    expect(Buffer.from(await (await fetch(urlA.href)).arrayBuffer()).equals(LINKED_BYTES)).toBe(true);
    // A's token on B's file.
    expect(await get(`${fileB}?token=${encodeURIComponent(tokenA)}`)).toBe(401);
    // A's files token on A's events; A's events token (logs_url) on A's file.
    expect(await get(`${server.url}/api/session/${a.session_id}/events?token=${encodeURIComponent(tokenA)}`)).toBe(401);
    const eventsToken = new URL(server.app.urls.logs(a.session_id)).searchParams.get('token')!;
    expect(await get(`${urlA.origin}${urlA.pathname}?token=${encodeURIComponent(eventsToken)}`)).toBe(401);
    // Expired, tampered, missing.
    const expired = signToken(server.app.urlSigningKey, 'files', a.session_id, 60, Date.now() - 3_600_000);
    expect(await get(`${urlA.origin}${urlA.pathname}?token=${encodeURIComponent(expired)}`)).toBe(401);
    const [payload, mac] = tokenA.split('.');
    const forged = `${Buffer.from(JSON.stringify({ c: 'files', s: b.session_id, e: 4102444800 })).toString('base64url')}.${mac}`;
    expect(await get(`${fileB}?token=${encodeURIComponent(forged)}`)).toBe(401);
    expect(await get(`${urlA.origin}${urlA.pathname}?token=${payload}.${mac!.slice(0, -2)}xx`)).toBe(401);
    expect(await get(`${urlA.origin}${urlA.pathname}`)).toBe(401);
    // The zip and the storage state need the key: a files token opens neither.
    expect(
      await get(
        `${server.url}/api/download_session_files?session_id=${a.session_id}&token=${encodeURIComponent(tokenA)}`,
      ),
    ).toBe(401);
    expect(await get(`${server.url}/api/get_session_store/${a.session_id}?token=${encodeURIComponent(tokenA)}`)).toBe(
      401,
    );
  });
});

describe("a live session's HAR so far", () => {
  it("is served only with the key, under any spelling, and only that session's requests", async () => {
    const [a, b] = [await createSession(), await createSession()];
    const page = await drive(a.connect_url!);
    await page.goto(`${site.origin}/downloads`);
    const har = (id: string, init?: RequestInit) => fetch(`${server.url}/api/sessions/${id}/har`, init);
    // With the key: A's requests so far, and B, which went nowhere, has none of them.
    await waitForAsync('the page in the record', async () =>
      (await (await server.api(`/api/sessions/${a.session_id}/har`)).text()).includes(site.origin) ? true : undefined,
    );
    expect(await (await server.api(`/api/sessions/${b.session_id}/har`)).text()).not.toContain(site.origin);
    // Without it: no key, a wrong key, the session's own signed tokens, other spellings of the path.
    const filesToken = signToken(server.app.urlSigningKey, 'files', a.session_id, 60);
    const eventsToken = new URL(server.app.urls.logs(a.session_id)).searchParams.get('token')!;
    const cdpToken = new URL(a.connect_url!.replace(/^ws/, 'http')).searchParams.get('token')!;
    const attempts = [
      await har(a.session_id),
      await har(a.session_id, { headers: { 'x-api-key': 'test_nope' } }),
      await har(a.session_id, { headers: { authorization: `Bearer ${cdpToken}` } }),
      ...(await Promise.all(
        [filesToken, eventsToken, cdpToken].map((t) =>
          fetch(`${server.url}/api/sessions/${a.session_id}/har?token=${encodeURIComponent(t)}`),
        ),
      )),
      await fetch(`${server.url}/api/sessions/${a.session_id}/%68ar`),
      await fetch(`${server.url}/api//sessions/${a.session_id}/har`),
      await fetch(`${server.url}/api/sessions/${a.session_id.toUpperCase()}/har`),
    ];
    for (const res of attempts) {
      expect([401, 404]).toContain(res.status);
      expect(await res.text()).not.toContain(site.origin);
    }
    await endSession(a.session_id);
    await endSession(b.session_id);
  });
});

describe('the byte cap', () => {
  it('a download that takes the session over MAX_DOWNLOAD_BYTES is cut and logged, and leaves no partial file; one within it is kept', async () => {
    const s = await createSession();
    const page = await drive(s.connect_url!);
    await page.goto(`${site.origin}/downloads`);
    // Slowly (1 MiB each 50 ms: some ten seconds for all of it), so the cut lands part way however loaded the host.
    await download(page, '/big?mb=200&slow=1');
    const cut = await waitForAsync('the cut', () => eventsOf(s.session_id).find((e) => !e.ok), 30_000);
    expect(cut).toMatchObject({
      filename: 'big.bin',
      ok: false,
      reason: expect.stringMatching(/download limit of 2097152 bytes/),
    });
    expect(cut.file_size).toBeGreaterThan(CAP);
    expect(cut.file_size).toBeLessThan(200 * 1024 * 1024);
    // Its partial file is gone from the session's folder, and nothing of it was kept.
    await waitForAsync('the partial file removed', () => (fs.readdirSync(s.downloads).length === 0 ? true : undefined));
    // Sent at once, a big file may finish before the cancel lands: then it is refused whole.
    await download(page, '/big?mb=6');
    await waitForAsync(
      'the second refusal',
      () => (eventsOf(s.session_id).filter((e) => !e.ok).length >= 2 ? true : undefined),
      30_000,
    );
    await page.click('#link');
    await waitForAsync('a small file kept', () => eventsOf(s.session_id).find((e) => e.ok));
    await endSession(s.session_id);
    expect(server.app.artifacts.files(s.session_id).map((f) => [f.filename, f.file_size])).toEqual([
      [LINKED_NAME, LINKED_BYTES.length],
    ]);
    expect(
      eventsOf(s.session_id)
        .filter((e) => !e.ok)
        .every((e) => /download limit/.test(e.reason ?? '')),
    ).toBe(true);
  });
});
