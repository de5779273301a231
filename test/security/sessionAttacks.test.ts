import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { sessionDirsOf, sessionsRootOf } from '../../server/sessions/isolation/sessionDirs.ts';
import { connectCdp } from '../helpers/cdpSocket.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { browserProcess, serviceProcesses } from '../helpers/processes.ts';
import { waitForAsync } from '../helpers/wait.ts';
import { listenersOf, uidOf } from './sockets.ts';

/**
 * The attacks of issue 9 against real sessions: a customer holding session A's connect_url tries
 * to reach the host's files, session B, and the warm-pool browser the next customer will get.
 */
let server: TestServer;
const opened: Browser[] = [];

async function createSession() {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'attack' });
  expect(res.status).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

async function drive(connectUrl: string): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.connectOverCDP(connectUrl);
  opened.push(browser);
  const context = browser.contexts()[0]!;
  return { browser, page: context.pages()[0] ?? (await context.newPage()) };
}

/** What a page of the session can read at a file:// URL: its text, or null when the browser refuses. */
async function readFileUrl(page: Page, url: string): Promise<string | null> {
  try {
    const res = await page.goto(url, { timeout: 30_000 });
    if (!res || !res.ok()) return null;
    const text = await page.evaluate(() => document.body?.innerText ?? '');
    // A folder the browser may not read shows as an empty listing: only the header row.
    if (/^Index of [^\n]*\n\[parent directory\]\nName\tSize\tDate Modified\s*$/.test(text)) return null;
    return /ERR_|not found|denied/i.test(text) && text.length < 400 ? null : text;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  server = await startServer({ WARM_POOL_SIZE: '1' });
  await (server.app.sessions as unknown as { whenWarm(ms?: number): Promise<void> }).whenWarm(30_000);
});
afterAll(async () => {
  for (const b of opened) await b.close().catch(() => undefined);
  await server.close();
});

describe('a session holder cannot reach the host, another session, or the pool', () => {
  it('runs each session as its own non-root user, with the sandbox on, and DATA_DIR 0700', async () => {
    const a = await createSession();
    const b = await createSession();
    const uidsOf = (id: string) =>
      new Set(
        serviceProcesses(server.dataDir)
          .filter((p) => p.tree === id || p.cmdline.includes(sessionDirsOf(server.dataDir, id).root))
          .map((p) => uidOf(p.pid)),
      );
    const ua = uidsOf(a.session_id);
    const ub = uidsOf(b.session_id);
    expect(ua.size).toBe(1);
    expect(ub.size).toBe(1);
    const [uidA] = ua;
    const [uidB] = ub;
    expect(uidA).not.toBe(0);
    expect(uidB).not.toBe(0);
    expect(uidA).not.toBe(uidB);
    for (const p of serviceProcesses(server.dataDir)) expect(p.cmdline, p.name).not.toMatch(/--no-sandbox/);
    expect(fs.statSync(server.dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(sessionDirsOf(server.dataDir, a.session_id).root).uid).toBe(uidA);
    expect(fs.statSync(sessionDirsOf(server.dataDir, a.session_id).root).mode & 0o777).toBe(0o700);
  });

  it('has no process of any session or of the pool listening on TCP or UDP', async () => {
    await createSession();
    const pids = serviceProcesses(server.dataDir).map((p) => p.pid);
    expect(pids.length).toBeGreaterThan(6);
    expect(listenersOf(pids)).toEqual([]);
    // The VNC socket is the service's and 0600: not even the session's own user can connect. Looked
    // at once every tree is up: the pool's refill, still starting, has x11vnc's socket for the
    // moment before the service takes it (in a folder only that session's user and the service
    // can enter; x11vnc runs as that user anyway).
    await (server.app.sessions as unknown as { whenWarm(ms?: number): Promise<void> }).whenWarm(30_000);
    for (const dir of fs.readdirSync(sessionsRootOf(server.dataDir)).filter((d) => !d.startsWith('.'))) {
      const sock = path.join(sessionsRootOf(server.dataDir), dir, 'run', 'vnc.sock');
      if (!fs.existsSync(sock)) continue;
      const st = fs.statSync(sock);
      expect(st.uid).toBe(process.getuid!());
      expect(st.mode & 0o777).toBe(0o600);
    }
  });

  it('gives each session a System V IPC namespace of its own, gone with its last process however it ends', async () => {
    const a = await createSession();
    const b = await createSession();
    const ipcOf = (pid: number) => fs.readlinkSync(`/proc/${pid}/ns/ipc`);
    // The processes that trade MIT-SHM segments: X server, VNC server and the browser itself.
    const treeOf = (id: string) => [
      ...serviceProcesses(server.dataDir).filter((p) => p.tree === id && (p.name === 'Xvfb' || p.name === 'x11vnc')),
      browserProcess(server.dataDir, id),
    ];
    const nsA = new Set(treeOf(a.session_id).map((p) => ipcOf(p.pid)));
    const nsB = new Set(treeOf(b.session_id).map((p) => ipcOf(p.pid)));
    expect(nsA.size).toBe(1);
    expect(nsB.size).toBe(1);
    expect(nsA).not.toEqual(nsB);
    expect(nsA.has(ipcOf(process.pid))).toBe(false);
    // Made and joined by unshare/nsenter as root, which then become the session's user: no trace of root is kept.
    for (const p of treeOf(a.session_id)) {
      const status = fs.readFileSync(`/proc/${p.pid}/status`, 'utf8');
      const ids = (field: string) =>
        new RegExp(`^${field}:[ \\t]*(.*)$`, 'm').exec(status)![1]!.trim().split(/\s+/).filter(Boolean).map(Number);
      const uid = uidOf(p.pid);
      expect(ids('Uid'), p.name).toEqual([uid, uid, uid, uid]);
      expect(ids('Gid'), p.name).toEqual([uid, uid, uid, uid]);
      expect(ids('Groups'), p.name).toEqual([]);
      expect(/^CapEff:\s*0+$/m.test(status), p.name).toBe(true);
    }
    // Segments of the session's user, as /proc/sysvipc/shm lists them in a namespace (its 8th column is the owner's uid).
    const segments = (uid: number, nsOf?: number) =>
      (nsOf
        ? execFileSync('nsenter', [`--ipc=/proc/${nsOf}/ns/ipc`, 'cat', '/proc/sysvipc/shm']).toString()
        : fs.readFileSync('/proc/sysvipc/shm', 'utf8')
      )
        .split('\n')
        .slice(1)
        .filter((l) => l.trim() && Number(l.trim().split(/\s+/)[7]) === uid).length;
    const xvfb = treeOf(a.session_id).find((p) => p.name === 'Xvfb')!;
    const uid = uidOf(xvfb.pid);
    // x11vnc and Chromium do use MIT-SHM: their segments are in the session's namespace, none in the host's.
    expect(segments(uid, xvfb.pid)).toBeGreaterThan(0);
    expect(segments(uid)).toBe(0);
    // SIGKILLed, nothing of the tree cleans up after itself: the kernel frees the namespace's segments.
    for (const p of serviceProcesses(server.dataDir).filter((p) => p.tree === a.session_id))
      process.kill(p.pid, 'SIGKILL');
    await waitForAsync(
      'session A to be reaped',
      () => (fs.existsSync(sessionDirsOf(server.dataDir, a.session_id).root) ? undefined : true),
      30_000,
    );
    expect(segments(uid)).toBe(0);
  });

  it('cannot read DATA_DIR, the database or another session through file://', async () => {
    const a = await createSession();
    const b = await createSession();
    const { page } = await drive(a.connect_url!);
    const bDirs = sessionDirsOf(server.dataDir, b.session_id);
    for (const url of [
      `file://${server.dataDir}/`,
      `file://${server.dataDir}/browserdesk.db`,
      `file://${server.dataDir}/browserdesk.db-wal`,
      `file://${bDirs.root}/`,
      `file://${bDirs.profile}/`,
      `file://${bDirs.profile}/Default/Cookies`,
      `file://${sessionsRootOf(server.dataDir)}/`,
    ]) {
      const text = await readFileUrl(page, url);
      expect(text, url).toBeNull();
    }
    // Its own folder it can read: the refusals above are the kernel's, not a blanket block.
    const own = sessionDirsOf(server.dataDir, a.session_id);
    fs.writeFileSync(path.join(own.downloads, 'mine.txt'), 'own file');
    fs.chmodSync(path.join(own.downloads, 'mine.txt'), 0o644);
    // On a fresh tab: the directory listings above keep their tab busy for a while on a loaded host.
    const fresh = await page.context().newPage();
    expect(await readFileUrl(fresh, `file://${own.downloads}/mine.txt`)).toContain('own file');
  });

  it('refuses DOM.setFileInputFiles outside its own folders, however the path is spelled', async () => {
    const a = await createSession();
    const b = await createSession();
    const { page } = await drive(a.connect_url!);
    await page.setContent('<input type="file" id="f">');
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#f' });
    const own = sessionDirsOf(server.dataDir, a.session_id);
    const bDirs = sessionDirsOf(server.dataDir, b.session_id);
    fs.symlinkSync(path.join(server.dataDir, 'browserdesk.db'), path.join(own.uploads, 'link.db'));
    const attempts = [
      path.join(server.dataDir, 'browserdesk.db-wal'),
      path.join(server.dataDir, 'api-key'),
      `${own.uploads}/../../../${path.basename(sessionsRootOf(server.dataDir))}/../../${server.dataDir}/browserdesk.db`,
      path.join(own.uploads, 'link.db'),
      path.join(bDirs.profile, 'Default', 'Cookies'),
      '/etc/shadow',
      'relative/path',
    ];
    for (const file of attempts) {
      await expect(cdp.send('DOM.setFileInputFiles', { nodeId, files: [file] }), file).rejects.toThrow(
        /uploads or downloads folder/,
      );
    }
    expect(await page.evaluate(() => (document.getElementById('f') as HTMLInputElement).files!.length)).toBe(0);
    // A file in its own uploads folder is given to the page.
    fs.writeFileSync(path.join(own.uploads, 'ok.txt'), 'fine');
    fs.chownSync(path.join(own.uploads, 'ok.txt'), fs.statSync(own.uploads).uid, fs.statSync(own.uploads).gid);
    await cdp.send('DOM.setFileInputFiles', { nodeId, files: [path.join(own.uploads, 'ok.txt')] });
    expect(await page.evaluate(() => (document.getElementById('f') as HTMLInputElement).files![0]!.text())).toBe(
      'fine',
    );
  });

  it('keeps downloads in its own folder whatever Browser.setDownloadBehavior asks', async () => {
    const a = await createSession();
    const { browser, page } = await drive(a.connect_url!);
    const elsewhere = fs.mkdtempSync('/tmp/bd-attack-');
    fs.chmodSync(elsewhere, 0o777);
    const cdp = await browser.newBrowserCDPSession();
    await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: elsewhere });
    await page.setContent(`<a id="d" download="planted.txt" href="data:text/plain,planted">get</a>`);
    await page.click('#d');
    // It landed in the session's own folder: that is where the service copies it out from (and then
    // removes it), so it shows up among the session's kept files.
    const kept = async () =>
      (
        (await (await server.api(`/api/session/${a.session_id}/status`)).json()) as {
          file_metadata: { filename: string }[];
        }
      ).file_metadata;
    const deadline = Date.now() + 30_000;
    while (!(await kept()).some((f) => f.filename === 'planted.txt') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect((await kept()).map((f) => f.filename)).toContain('planted.txt');
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('refuses the commands that would reach past its browser', async () => {
    const a = await createSession();
    const { browser } = await drive(a.connect_url!);
    const cdp = await browser.newBrowserCDPSession();
    await expect(
      cdp.send(
        'Target.setRemoteLocations' as 'Browser.getVersion',
        { locations: [{ host: '127.0.0.1', port: 9222 }] } as never,
      ),
    ).rejects.toThrow(/not available/);
    const { targetInfos } = await cdp.send('Target.getTargets');
    const pageTarget = targetInfos.find((t) => t.type === 'page')!;
    await expect(cdp.send('Target.exposeDevToolsProtocol', { targetId: pageTarget.targetId })).rejects.toThrow(
      /not available/,
    );
  });

  it('lets one client of a session address only the target sessions it attached itself', async () => {
    const a = await createSession();
    const one = await connectCdp(a.connect_url!);
    const two = await connectCdp(a.connect_url!);
    const { targetInfos } = await one.send<{ targetInfos: { targetId: string; type: string }[] }>('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'page')!;
    const { sessionId } = await one.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: target.targetId,
      flatten: true,
    });
    expect(await one.send('Runtime.evaluate', { expression: '6*7', returnByValue: true }, sessionId)).toMatchObject({
      result: { value: 42 },
    });
    await expect(two.send('Runtime.evaluate', { expression: '6*7', returnByValue: true }, sessionId)).rejects.toThrow(
      /Session with given id not found/,
    );
    one.close();
    two.close();
  });

  it('cannot plant a cookie or a tab in the browser the next customer receives', async () => {
    const a = await createSession();
    const { browser, page } = await drive(a.connect_url!);
    await page.goto('data:text/html,<title>a</title>');
    await browser.contexts()[0]!.addCookies([{ name: 'planted', value: 'x', domain: 'example.com', path: '/' }]);
    // Every door the old design had: the pool's DevTools port file, its profile, its display cookie.
    const pool = fs.readdirSync(sessionsRootOf(server.dataDir)).filter((d) => !d.startsWith('.'));
    for (const dir of pool) {
      for (const file of ['profile/DevToolsActivePort', 'profile/Default/Cookies', 'run/xauth']) {
        expect(
          await readFileUrl(page, `file://${path.join(sessionsRootOf(server.dataDir), dir, file)}`),
          file,
        ).toBeNull();
      }
    }
    await (server.app.sessions as unknown as { whenWarm(ms?: number): Promise<void> }).whenWarm(30_000);
    const next = await createSession();
    const { browser: nextBrowser } = await drive(next.connect_url!);
    const cookies = await nextBrowser.contexts()[0]!.cookies();
    expect(cookies.find((c) => c.name === 'planted')).toBeUndefined();
    const pages = nextBrowser.contexts()[0]!.pages();
    expect(pages.map((p) => p.url())).toEqual(['about:blank']);
  });
});
