import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { readStorageState } from '../server/artifacts/storageOut.ts';
import { CdpClient } from '../server/sessions/cdp/client.ts';
import { CdpHub, type SessionCdp } from '../server/sessions/cdp/hub.ts';
import { PrivateCdpEndpoint } from '../server/sessions/cdp/privateEndpoint.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';
import type { TargetInfo } from './helpers/cdpSocket.ts';

/**
 * A context session's CDP view (CdpHub.scoped, sessions/cdp/contextScope.ts) on a real Chromium:
 * two browser contexts A and B in one browser, each with a page; everything goes through A's view.
 * Playwright and Puppeteer must see A as their default context and nothing of B (nor of the
 * browser's default context, where the session's own start page is); a raw client's attacks on B
 * must be refused or answered as if B did not exist, with B untouched.
 */
let server: TestServer;
let hub: CdpHub;
let endpoint: PrivateCdpEndpoint;
let A: string;
let B: string;
let pageA: string;
let pageB: string;
let viewA: SessionCdp;
let closes = 0;
const clients: CdpClient[] = [];


const allTargets = async () => ((await hub.call('Target.getTargets')) as { targetInfos: TargetInfo[] }).targetInfos;

async function newPage(browserContextId: string, url = 'about:blank'): Promise<string> {
  const { targetId } = (await hub.call('Target.createTarget', { url, browserContextId })) as { targetId: string };
  return targetId;
}

/** A raw client on a channel of A's view. */
async function clientOnA(): Promise<CdpClient> {
  const client = await CdpClient.open(viewA);
  clients.push(client);
  return client;
}

/** What `expression` gives on the page, through the hub's own unscoped session. */
async function evaluate(targetId: string, expression: string): Promise<unknown> {
  const { sessionId } = (await hub.call('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  try {
    const { result } = (await hub.call('Runtime.evaluate', { expression }, sessionId, 10_000)) as {
      result: { value: unknown };
    };
    return result.value;
  } finally {
    await hub.call('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}

/** Is the page alive and running script (not paused, not closed)? */
const alive = async (targetId: string) => (await evaluate(targetId, '6 * 7')) === 42;

beforeAll(async () => {
  server = await startServer({ RECORD_SESSIONS: 'off' });
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'cdp scope' });
  expect(res.status).toBe(200);
  const { session_id } = CreateWorkflowSessionResponse.parse(await res.json());
  const live = server.app.sessions.get(session_id)!;
  if (!(live.hub instanceof CdpHub)) throw new Error('a browser session holds its own hub');
  hub = live.hub;
  A = ((await hub.call('Target.createBrowserContext')) as { browserContextId: string }).browserContextId;
  B = ((await hub.call('Target.createBrowserContext')) as { browserContextId: string }).browserContextId;
  pageA = await newPage(A, 'data:text/html,<title>A</title>');
  pageB = await newPage(B, 'data:text/html,<title>B</title>');
  await hub.call('Storage.setCookies', {
    browserContextId: B,
    cookies: [{ name: 'b_secret', value: 'of-b', domain: 'example.test', path: '/' }],
  });
  await hub.call('Storage.setCookies', {
    browserContextId: A,
    cookies: [{ name: 'a_secret', value: 'of-a', domain: 'example.test', path: '/' }],
  });
  await hub.call('Storage.setCookies', {
    cookies: [{ name: 'default_secret', value: 'of-default', domain: 'example.test', path: '/' }],
  });
  viewA = hub.scoped({ browserContextId: A, folders: live.folders, onBrowserClose: () => closes++ });
  endpoint = new PrivateCdpEndpoint();
});

afterAll(async () => {
  for (const c of clients) c.close();
  await endpoint?.close();
  await server?.discard();
});

describe('Playwright through a context view', () => {
  it("sees A as its only context, A's page only, opens new pages in A, and none of B's cookies", async () => {
    const browser = await chromium.connectOverCDP(await endpoint.url(viewA), { timeout: 15_000 });
    try {
      expect(browser.contexts()).toHaveLength(1);
      const context = browser.contexts()[0]!;
      const titles = await Promise.all(context.pages().map((p) => p.title()));
      expect(titles).toEqual(['A']);

      const page = await context.newPage();
      await page.goto('data:text/html,<title>A2</title>');
      const created = (await allTargets()).filter((t) => t.url.includes('A2'));
      expect(created.map((t) => t.browserContextId)).toEqual([A]);

      await context.addCookies([{ name: 'a_own', value: 'of-a', domain: 'example.test', path: '/' }]);
      const names = (await context.cookies()).map((c) => c.name);
      expect(names.sort()).toEqual(['a_own', 'a_secret']);
      // And it landed in A, nowhere else.
      const inA = (await hub.call('Storage.getCookies', { browserContextId: A })) as { cookies: { name: string }[] };
      expect(inA.cookies.map((c) => c.name).sort()).toEqual(['a_own', 'a_secret']);
      const inDefault = (await hub.call('Storage.getCookies')) as { cookies: { name: string }[] };
      expect(inDefault.cookies.map((c) => c.name)).not.toContain('a_own');
      await page.close();
      expect(context.pages().map((p) => p.url())).not.toContain('data:text/html,<title>B</title>');
    } finally {
      await browser.close();
    }
    expect(closes, "connectOverCDP's close only disconnects").toBe(0);
    expect(await alive(pageB)).toBe(true);
  });
});

describe('Puppeteer through a context view', () => {
  it("sees A's pages only, and newPage opens in A", async () => {
    const browser = await puppeteer.connect({ browserWSEndpoint: await endpoint.url(viewA), defaultViewport: null });
    try {
      expect(browser.browserContexts()).toHaveLength(1);
      const titles = await Promise.all((await browser.pages()).map((p) => p.title()));
      expect(titles).toEqual(['A']);
      const page = await browser.newPage();
      await page.goto('data:text/html,<title>A3</title>');
      const created = (await allTargets()).filter((t) => t.url.includes('A3'));
      expect(created.map((t) => t.browserContextId)).toEqual([A]);
      expect((await browser.defaultBrowserContext().cookies()).map((c) => c.name)).not.toContain('b_secret');
      await page.close();
    } finally {
      await browser.disconnect();
    }
    expect(await alive(pageB)).toBe(true);
  });
});

describe('a raw client on a context view', () => {
  const refused = /not available on a context session/;
  const unknownTarget = /No target with given id found/;

  it('lists only its own targets, as results and as events', async () => {
    const cdp = await clientOnA();
    const seen: string[] = [];
    cdp.on('Target.targetCreated', (p) => seen.push((p.targetInfo as TargetInfo).targetId));
    const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    expect(targetInfos.some((t) => t.targetId === pageA)).toBe(true);
    expect(targetInfos.every((t) => t.type === 'browser' || t.browserContextId === A)).toBe(true);
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    const laterB = await newPage(B);
    const laterA = await newPage(A);
    await waitForAsync('the new page of A to be told of', () => (seen.includes(laterA) ? true : undefined), 15_000);
    expect(seen).toContain(pageA);
    expect(seen).not.toContain(pageB);
    expect(seen).not.toContain(laterB);
    expect(await cdp.send('Target.getBrowserContexts')).toEqual({ browserContextIds: [], defaultBrowserContextId: A });
  });

  it("cannot reach B's page: attach, close, activate, info and its window answer as for no such target", async () => {
    const cdp = await clientOnA();
    await expect(cdp.send('Target.attachToTarget', { targetId: pageB, flatten: true })).rejects.toThrow(unknownTarget);
    await expect(cdp.send('Target.closeTarget', { targetId: pageB })).rejects.toThrow(unknownTarget);
    await expect(cdp.send('Target.activateTarget', { targetId: pageB })).rejects.toThrow(unknownTarget);
    await expect(cdp.send('Target.getTargetInfo', { targetId: pageB })).rejects.toThrow(unknownTarget);
    await expect(cdp.send('Browser.getWindowForTarget', { targetId: pageB })).rejects.toThrow(unknownTarget);
    // Its own page it reaches.
    const { targetInfo } = await cdp.send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId: pageA });
    expect(targetInfo.browserContextId).toBe(A);
    expect(await alive(pageB)).toBe(true);
  });

  it('creates targets in A whatever context it names, and cannot make or dispose contexts', async () => {
    const cdp = await clientOnA();
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', {
      url: 'about:blank',
      browserContextId: B,
    });
    expect((await allTargets()).find((t) => t.targetId === targetId)?.browserContextId).toBe(A);
    await cdp.send('Target.closeTarget', { targetId });
    await expect(cdp.send('Target.createBrowserContext')).rejects.toThrow(refused);
    await expect(cdp.send('Target.disposeBrowserContext', { browserContextId: B })).rejects.toThrow(refused);
    expect(await alive(pageB)).toBe(true);
  });

  it("reads A's cookies only, named B or not, on the browser session and on a page's", async () => {
    const cdp = await clientOnA();
    const names = (r: { cookies: { name: string }[] }) => r.cookies.map((c) => c.name);
    const named = await cdp.send<{ cookies: { name: string }[] }>('Storage.getCookies', { browserContextId: B });
    expect(names(named)).not.toContain('b_secret');
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: pageA,
      flatten: true,
    });
    // On a page's session Chromium's Storage cookie commands act on its DEFAULT context: refused.
    for (const method of ['Storage.getCookies', 'Storage.setCookies', 'Storage.clearCookies'])
      for (const params of [{}, { browserContextId: B }])
        await expect(cdp.send(method, { cookies: [], ...params }, sessionId)).rejects.toThrow(/browser session/);
    // Network's, on the page's session, are the page's own context's.
    const onPage = await cdp.send<{ cookies: { name: string }[] }>('Network.getAllCookies', {}, sessionId);
    expect(names(onPage)).toContain('a_secret');
    expect(names(onPage)).not.toContain('default_secret');
    expect(names(onPage)).not.toContain('b_secret');
    await expect(
      cdp.send('Target.createTarget', { url: 'about:blank', browserContextId: B }, sessionId),
    ).rejects.toThrow(/browser session/);
    await cdp.send('Storage.clearCookies', { browserContextId: B });
    const stillB = (await hub.call('Storage.getCookies', { browserContextId: B })) as { cookies: { name: string }[] };
    expect(names(stillB)).toContain('b_secret');
  });

  it('Browser.close ends this session only; crash, process lists and tracing are refused', async () => {
    const cdp = await clientOnA();
    const before = closes;
    await expect(cdp.send('Browser.close')).resolves.toEqual({});
    expect(closes).toBe(before + 1);
    expect(hub.open).toBe(true);
    await expect(cdp.send('Browser.crash')).rejects.toThrow(refused);
    await expect(cdp.send('Browser.crashGpuProcess')).rejects.toThrow(refused);
    await expect(cdp.send('SystemInfo.getProcessInfo')).rejects.toThrow(refused);
    await expect(cdp.send('Tracing.start', { categories: 'devtools.timeline' })).rejects.toThrow(refused);
    await expect(cdp.send('Fetch.enable', {})).rejects.toThrow(refused);
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: pageA,
      flatten: true,
    });
    await expect(cdp.send('Tracing.start', {}, sessionId)).rejects.toThrow(refused);
    await expect(cdp.send('Browser.crash', {}, sessionId)).rejects.toThrow(refused);
    expect(await alive(pageB)).toBe(true);
  });

  it('meets the same rules inside Target.sendMessageToTarget', async () => {
    const cdp = await clientOnA();
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: pageA,
      flatten: false,
    });
    const wrap = (method: string, params: Record<string, unknown> = {}) =>
      cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method, params }) });
    await expect(wrap('Browser.crash')).rejects.toThrow(refused);
    await expect(wrap('SystemInfo.getProcessInfo')).rejects.toThrow(refused);
    await expect(wrap('Tracing.start')).rejects.toThrow(refused);
    await expect(wrap('Target.disposeBrowserContext', { browserContextId: B })).rejects.toThrow(refused);
    await expect(wrap('Target.closeTarget', { targetId: pageB })).rejects.toThrow(unknownTarget);
    await expect(wrap('Browser.close')).rejects.toThrow(/cannot be wrapped/);
    // A cookie read wrapped to a page's session (Chromium's default context there) is refused too.
    await expect(wrap('Storage.getCookies', { browserContextId: B })).rejects.toThrow(/browser session/);
    // What the view passes, it passes: the wrapped answer comes back as Chromium's event.
    const answers: string[] = [];
    cdp.on('Target.receivedMessageFromTarget', (p) => answers.push(String(p.message)));
    await wrap('Runtime.evaluate', { expression: 'document.title' });
    await waitForAsync('the wrapped answer', () => (answers.length ? true : undefined), 15_000);
    expect(answers.join()).toContain('"value":"A"');
    expect(await alive(pageB)).toBe(true);
  });

  it("auto-attach with waitForDebuggerOnStart never holds B's new page, nor tells A of it", async () => {
    const cdp = await clientOnA();
    const attached: TargetInfo[] = [];
    cdp.on('Target.attachedToTarget', (p) => attached.push(p.targetInfo as TargetInfo));
    // The sessions Chromium attached to this channel and the view let go of (on the hub's own calls).
    const resumed: string[] = [];
    const detached: string[] = [];
    const call = hub.call.bind(hub);
    const spy = vi.spyOn(hub, 'call').mockImplementation((method, params, sessionId, timeoutMs) => {
      if (method === 'Runtime.runIfWaitingForDebugger' && sessionId) resumed.push(sessionId);
      if (method === 'Target.detachFromTarget' && typeof params?.sessionId === 'string')
        detached.push(params.sessionId);
      return call(method, params, sessionId, timeoutMs);
    });
    try {
      await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
      const before = resumed.length;
      await newPage(B, 'data:text/html,<script>document.title = "ran"</script>');
      await waitForAsync("B's new page to be let go of", () => (resumed.length > before ? true : undefined), 15_000);
    } finally {
      spy.mockRestore();
    }
    // Every one was resumed and detached: Chromium no longer knows those sessions.
    expect(resumed.length).toBeGreaterThan(0);
    expect(detached).toEqual(expect.arrayContaining(resumed));
    for (const sessionId of resumed)
      await expect(hub.call('Runtime.evaluate', { expression: '1' }, sessionId)).rejects.toThrow(/not found/i);
    // And B's new page ran its script.
    const laterB = (await allTargets()).find((t) => t.url.includes('document.title'))!.targetId;
    await waitForAsync(
      "B's new page to run",
      async () => ((await evaluate(laterB, 'document.title')) === 'ran' ? true : undefined),
      15_000,
    );
    const laterA = await newPage(A);
    await waitForAsync(
      'its own new page to attach',
      () => (attached.some((t) => t.targetId === laterA) ? true : undefined),
      15_000,
    );
    expect(attached.every((t) => t.browserContextId === A)).toBe(true);
    expect(attached.map((t) => t.targetId)).not.toContain(laterB);
    expect(attached.map((t) => t.targetId)).not.toContain(pageB);
    await expect(cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false })).rejects.toThrow(
      /flatten: true/,
    );
  });

  it("attaches to the browser's own target as a browser session, under the browser session's rules", async () => {
    const cdp = await clientOnA();
    const { targetInfo } = await cdp.send<{ targetInfo: TargetInfo }>('Target.getTargetInfo');
    expect(targetInfo.type).toBe('browser');
    for (const flatten of [true, false]) {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId: targetInfo.targetId,
        flatten,
      });
      const send = (method: string, params: Record<string, unknown> = {}) =>
        flatten
          ? cdp.send(method, params, sessionId)
          : cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: 1, method, params }) });
      await expect(send('Fetch.enable')).rejects.toThrow(refused);
      await expect(send('Target.attachToTarget', { targetId: pageB, flatten: true })).rejects.toThrow(unknownTarget);
      if (flatten) {
        const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets', {}, sessionId);
        expect(targetInfos.map((t) => t.targetId)).not.toContain(pageB);
        expect(targetInfos.map((t) => t.targetId)).toContain(pageA);
      }
    }
    expect(await alive(pageB)).toBe(true);
  });

  it("gives the service's own storage-state export the session's cookies only", async () => {
    const cdp = await clientOnA();
    // (An earlier test's Storage.clearCookies, bound to A, cleared A's.)
    await hub.call('Storage.setCookies', {
      browserContextId: A,
      cookies: [{ name: 'a_kept', value: 'of-a', domain: 'example.test', path: '/' }],
    });
    const state = await readStorageState(cdp, undefined, Date.now() + 10_000);
    const names = state.cookies.map((c) => c.name);
    expect(names).toEqual(['a_kept']);
    expect(names).not.toContain('b_secret');
    expect(names).not.toContain('default_secret');
  });

  it('an unscoped channel of the same hub still sees the whole browser', async () => {
    const cdp = await CdpClient.open(hub);
    clients.push(cdp);
    const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    expect(targetInfos.map((t) => t.targetId)).toEqual(expect.arrayContaining([pageA, pageB]));
  });
});
