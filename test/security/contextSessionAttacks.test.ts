import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreatedApiKey } from '../../contract/apiKeys.ts';
import { CreateWorkflowSessionResponse, Session } from '../../contract/sessions.ts';
import type { CdpClient } from '../../server/sessions/cdp/client.ts';
import { connectCdp, type TargetInfo } from '../helpers/cdpSocket.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { closeLeavingNothing } from '../helpers/teardown.ts';
import { waitForAsync } from '../helpers/wait.ts';

/**
 * A context session's client attacks what shares its browser (issue 46, SECURITY.md "Context
 * sessions"): another session of the same key (same browser, another context), another key's
 * session (another browser), and the shared browser itself (its default context, its process).
 * Everything goes through connect_url, as a customer's client would. Each attack is refused or
 * scoped to the attacker's own context, and the victims stay live and untouched.
 */
let server: TestServer;
let site: http.Server;
let siteUrl: string;
let otherKey: string;
const clients: CdpClient[] = [];


/** A context session, and what its own client sees of itself: its page and its context. */
interface Victim {
  id: string;
  cdp: CdpClient;
  page: string;
  context: string;
  /** A session its own client attached to its page (the attacker tries to use it). */
  session: string;
}

beforeAll(async () => {
  server = await startServer({ WARM_POOL_SIZE: '0', CONTEXTS_PER_BROWSER: '4', RECORD_SESSIONS: 'off' });
  site = http.createServer((req, res) => {
    if (req.url === '/file') {
      res.setHeader('content-type', 'application/octet-stream');
      res.setHeader('content-disposition', 'attachment; filename="victim.txt"');
      return res.end('the victim downloaded this');
    }
    res.setHeader('content-type', 'text/html');
    if (req.url === '/set') res.setHeader('set-cookie', 'victim_secret=1; Path=/');
    res.end(`<!doctype html><title>site ${req.url}</title>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  const made = await postJson(server, '/api/keys', { name: 'another key' });
  expect(made.status).toBe(201);
  otherKey = CreatedApiKey.parse(await made.json()).key;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await closeLeavingNothing(server);
  await new Promise((r) => site?.close(r));
});

async function create(apiKey?: string) {
  const body = { workflow_name: 'context attacks', isolation: 'context' };
  const res = apiKey
    ? await fetch(`${server.url}/api/create_workflow_session`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    : await postJson(server, '/api/create_workflow_session', body);
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const made = CreateWorkflowSessionResponse.parse(JSON.parse(text));
  expect(made.isolation).toBe('context');
  return made;
}

async function connect(connectUrl: string): Promise<CdpClient> {
  const cdp = await connectCdp(connectUrl);
  clients.push(cdp);
  return cdp;
}

const stateOf = async (id: string) => Session.parse(await (await server.api(`/api/sessions/${id}`)).json()).state;

/** A live context session whose own client has set a cookie and holds a session on its page. */
async function victim(apiKey?: string): Promise<Victim> {
  const made = await create(apiKey);
  const cdp = await connect(made.connect_url!);
  const { targetInfos } = await cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page')!;
  const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
    targetId: page.targetId,
    flatten: true,
  });
  await cdp.send('Page.enable', {}, sessionId);
  const loaded = new Promise((resolve) => cdp.on('Page.loadEventFired', resolve));
  await cdp.send('Page.navigate', { url: `${siteUrl}/set` }, sessionId);
  await loaded;
  return { id: made.session_id, cdp, page: page.targetId, context: page.browserContextId!, session: sessionId };
}

/** The victim's page is there, and answers its own client. */
async function untouched(v: Victim): Promise<void> {
  expect(await stateOf(v.id)).toBe('live');
  const { result } = await v.cdp.send<{ result: { value: string } }>(
    'Runtime.evaluate',
    { expression: 'document.cookie' },
    v.session,
  );
  expect(result.value).toBe('victim_secret=1');
}

let same: Victim;
let other: Victim;
let attacker: CdpClient;
let attackerId: string;
let attackerUrl: string;

describe('a context session attacking what shares its browser', () => {
  beforeAll(async () => {
    same = await victim();
    other = await victim(otherKey);
    const made = await create();
    attackerId = made.session_id;
    attackerUrl = made.connect_url!;
    attacker = await connect(attackerUrl);
    // Same key: one browser; the other key's is another.
    expect(server.app.sessions.placesUsed).toBe(2);
  });

  // Looked up when each test runs (the victims are made in beforeAll, after it.each is read).
  const victims = [
    ['the same key', () => same],
    ['another key', () => other],
  ] as const;
  const unknownTarget = /No target with given id found/;
  const refused = /not available on a context session/;

  it('lists only its own targets: none of theirs, none of the shared browser’s default context', async () => {
    const { targetInfos } = await attacker.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    const ids = targetInfos.map((t) => t.targetId);
    expect(ids).not.toContain(same.page);
    expect(ids).not.toContain(other.page);
    const contexts = new Set(targetInfos.filter((t) => t.type !== 'browser').map((t) => t.browserContextId));
    expect(contexts.size).toBe(1);
    expect(contexts.has(same.context)).toBe(false);
    const seen: string[] = [];
    attacker.on('Target.targetCreated', (p) => seen.push((p.targetInfo as TargetInfo).targetId));
    attacker.on('Target.attachedToTarget', (p) => seen.push((p.targetInfo as TargetInfo).targetId));
    await attacker.send('Target.setDiscoverTargets', { discover: true });
    await attacker.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
    // A page the victim opens now is not told of either, and is not held.
    const { targetId } = await same.cdp.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    await same.cdp.send('Target.closeTarget', { targetId });
    const { browserContextIds, defaultBrowserContextId } = await attacker.send<{
      browserContextIds: string[];
      defaultBrowserContextId: string;
    }>('Target.getBrowserContexts');
    expect(browserContextIds).toEqual([]);
    expect([same.context, other.context]).not.toContain(defaultBrowserContextId);
    expect(seen).not.toContain(same.page);
    expect(seen).not.toContain(targetId);
    await untouched(same);
  });

  it('Playwright and Puppeteer on its connect_url see its own context only, and open pages in it', async () => {
    const pw = await chromium.connectOverCDP(attackerUrl);
    try {
      expect(pw.contexts()).toHaveLength(1);
      const context = pw.contexts()[0]!;
      const page = await context.newPage();
      const urls = context.pages().map((p) => p.url());
      expect(urls).toHaveLength(2);
      expect((await context.cookies()).map((c) => c.name)).not.toContain('victim_secret');
      await page.close();
    } finally {
      await pw.close();
    }
    const pp = await puppeteer.connect({ browserWSEndpoint: attackerUrl, defaultViewport: null });
    try {
      expect(pp.browserContexts()).toHaveLength(1);
      expect(await pp.pages()).toHaveLength(1);
      const page = await pp.newPage();
      expect(await pp.pages()).toHaveLength(2);
      expect((await pp.defaultBrowserContext().cookies()).map((c) => c.name)).not.toContain('victim_secret');
      await page.close();
    } finally {
      await pp.disconnect();
    }
    const { targetInfos } = await same.cdp.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    expect(targetInfos.filter((t) => t.type === 'page').map((t) => t.targetId)).toEqual([same.page]);
    await untouched(same);
    await untouched(other);
  });

  it.each(victims)("cannot attach to, close, activate or read %s's page", async (_who, of) => {
    const v = of();
    await expect(attacker.send('Target.attachToTarget', { targetId: v.page, flatten: true })).rejects.toThrow(
      unknownTarget,
    );
    await expect(attacker.send('Target.closeTarget', { targetId: v.page })).rejects.toThrow(unknownTarget);
    await expect(attacker.send('Target.activateTarget', { targetId: v.page })).rejects.toThrow(unknownTarget);
    await expect(attacker.send('Target.getTargetInfo', { targetId: v.page })).rejects.toThrow(unknownTarget);
    await untouched(v);
  });

  it.each(victims)("cannot navigate or screenshot %s's page through its session id", async (_who, of) => {
    const v = of();
    await expect(attacker.send('Page.navigate', { url: 'about:blank' }, v.session)).rejects.toThrow(/not found/);
    await expect(attacker.send('Page.captureScreenshot', {}, v.session)).rejects.toThrow(/not found/);
    // Nor the whole screen from its browser session.
    await expect(attacker.send('Page.captureScreenshot')).rejects.toThrow(refused);
    await untouched(v);
  });

  it.each(victims)("cannot read or clear %s's cookies, naming its context or not", async (_who, of) => {
    const v = of();
    const names = (r: { cookies: { name: string }[] }) => r.cookies.map((c) => c.name);
    for (const params of [{ browserContextId: v.context }, {}]) {
      const read = await attacker.send<{ cookies: { name: string }[] }>('Storage.getCookies', params);
      expect(names(read)).not.toContain('victim_secret');
      await attacker.send('Storage.clearCookies', params);
    }
    await untouched(v);
  });

  it.each(victims)("cannot dispose %s's context, nor make contexts", async (_who, of) => {
    const v = of();
    await expect(attacker.send('Target.disposeBrowserContext', { browserContextId: v.context })).rejects.toThrow(
      refused,
    );
    await expect(attacker.send('Target.createBrowserContext')).rejects.toThrow(refused);
    // A page made "in" the victim's context lands in the attacker's.
    const { targetId } = await attacker.send<{ targetId: string }>('Target.createTarget', {
      url: 'about:blank',
      browserContextId: v.context,
    });
    const { targetInfo } = await attacker.send<{ targetInfo: TargetInfo }>('Target.getTargetInfo', { targetId });
    expect(targetInfo.browserContextId).not.toBe(v.context);
    await attacker.send('Target.closeTarget', { targetId });
    await untouched(v);
  });

  it("cannot read the other session's downloads, as events or as files", async () => {
    const told: unknown[] = [];
    attacker.on('Browser.downloadWillBegin', (p) => told.push(p));
    await attacker.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', eventsEnabled: true });
    const theirs: { guid: string }[] = [];
    same.cdp.on('Browser.downloadWillBegin', (p) => theirs.push(p as { guid: string }));
    const done = new Promise((resolve) =>
      same.cdp.on('Browser.downloadProgress', (p) => p.state === 'completed' && resolve(p)),
    );
    await same.cdp.send('Browser.setDownloadBehavior', { behavior: 'allowAndName', eventsEnabled: true });
    await same.cdp.send('Page.navigate', { url: `${siteUrl}/file` }, same.session);
    await done;
    expect(theirs).toHaveLength(1);
    expect(told).toEqual([]);
    // The file is in the victim's own downloads folder; the attacker's page cannot be given it.
    const folder = server.app.sessions.get(same.id)!.folders.downloads;
    const file = path.join(folder, theirs[0]!.guid);
    expect(fs.readFileSync(file, 'utf8')).toBe('the victim downloaded this');
    const { targetInfos } = await attacker.send<{ targetInfos: TargetInfo[] }>('Target.getTargets');
    const own = targetInfos.find((t) => t.type === 'page')!;
    const { sessionId } = await attacker.send<{ sessionId: string }>('Target.attachToTarget', {
      targetId: own.targetId,
      flatten: true,
    });
    const { root } = await attacker.send<{ root: { nodeId: number } }>('DOM.getDocument', {}, sessionId);
    await expect(
      attacker.send('DOM.setFileInputFiles', { files: [file], nodeId: root.nodeId }, sessionId),
    ).rejects.toThrow(/Only files in this session/);
    // No file: page is opened (every context of the shared browser runs as one user), nor an internal
    // page that shows the whole browser (chrome://process-internals: every profile's frames).
    const opens = /opens http, https, data and blob URLs/;
    for (const url of [
      `file://${file}`,
      `FILE://${folder}/`,
      `view-source:file://${file}`,
      'chrome://process-internals/#web-contents',
      'chrome://inspect/#pages',
      'devtools://devtools/bundled/inspector.html',
      'about:version',
    ]) {
      await expect(attacker.send('Page.navigate', { url }, sessionId)).rejects.toThrow(opens);
      await expect(attacker.send('Target.createTarget', { url })).rejects.toThrow(opens);
    }
    const { result } = await attacker.send<{ result: { value: string } }>(
      'Runtime.evaluate',
      { expression: 'location.href' },
      sessionId,
    );
    expect(result.value.startsWith('file:')).toBe(false);
  });

  it('cannot crash the shared browser, list its processes or trace it; Browser.close ends its own session only', async () => {
    await expect(attacker.send('Browser.crash')).rejects.toThrow(refused);
    await expect(attacker.send('SystemInfo.getProcessInfo')).rejects.toThrow(refused);
    await expect(attacker.send('Tracing.start', {})).rejects.toThrow(refused);
    await expect(attacker.send('Browser.close')).resolves.toEqual({});
    await waitForAsync('the attacker’s session to end', async () =>
      (await stateOf(attackerId)) === 'ended' ? true : undefined,
    );
    await untouched(same);
    await untouched(other);
  });
});
