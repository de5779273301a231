import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SessionStatus } from '../contract/runControl.ts';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { recordingFileOf } from '../server/artifacts/recorder.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { countByName } from './helpers/processes.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { CdpPage, ensureViewerBuilt, waitForAsync } from './helpers/viewSession.ts';

/**
 * The live view and recording of context sessions, end to end: two context sessions of one key
 * share a browser (headless: no display of its own). Each one's vnc_url page shows its own page only and typing
 * reaches its own page only; its recording is its own page, whatever window is on the shared display.
 */

let server: TestServer;
let site: http.Server;
let siteUrl: string;
let browser: Browser;

beforeAll(async () => {
  ensureViewerBuilt();
  server = await startServer({ CONTEXTS_PER_BROWSER: '3', RECORD_SESSIONS: 'all' });
  // /c/<hex>: that colour, with one text field at CSS (200..500, 150..190).
  site = http.createServer((req, res) => {
    const hex = /^\/c\/([0-9a-f]{6})$/.exec(req.url ?? '')?.[1] ?? 'ffffff';
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><title>c ${hex}</title><body style="margin:0;height:100vh;background:#${hex}">
<input id=f style="position:fixed;left:200px;top:150px;width:300px;height:40px;font:20px monospace">`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});

afterAll(async () => {
  await browser?.close();
  await closeLeavingNothing(server);
  await new Promise((r) => site?.close(r));
});

async function createContext(hex: string) {
  const res = await postJson(server, '/api/create_workflow_session', {
    workflow_name: 'context live view',
    isolation: 'context',
    start_url: `${siteUrl}/c/${hex}`,
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const body = CreateWorkflowSessionResponse.parse(JSON.parse(text));
  expect(body.isolation).toBe('context');
  return body;
}

const near = (a: number[], b: number[], tolerance = 30) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);
const rgbOf = (hex: string) => [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** The colour at the middle of the viewer's canvas (the session page's background there). */
const canvasCentre = (page: Page) =>
  page.evaluate(() => {
    const c = document.querySelector('canvas')!;
    if (!c.width) return [];
    return [
      ...c
        .getContext('2d')!
        .getImageData(c.width >> 1, (c.height * 3) >> 2, 1, 1)
        .data.slice(0, 3),
    ];
  });

async function openViewer(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  return page;
}

const untilShows = (page: Page, hex: string) =>
  waitForAsync(`viewer shows ${hex}`, async () => (near(await canvasCentre(page), rgbOf(hex)) ? true : undefined));

/** Where CSS point (x, y) of the session page is on the viewer's canvas. */
async function onCanvas(page: Page, pageWidth: number, x: number, y: number) {
  return page.evaluate(
    ([px, py, iw]) => {
      const c = document.querySelector('canvas')!;
      const r = c.getBoundingClientRect();
      const scale = Math.min(r.width / c.width, r.height / c.height);
      const k = (c.width / iw!) * scale;
      return {
        x: r.left + (r.width - c.width * scale) / 2 + px! * k,
        y: r.top + (r.height - c.height * scale) / 2 + py! * k,
      };
    },
    [x, y, pageWidth],
  );
}

describe('a context session’s live view and recording', () => {
  it('shows and drives its own page only, never another session’s on the shared display', async () => {
    const a = await createContext('aa2200');
    const b = await createContext('0044cc');
    const cdpA = await CdpPage.attach(a.connect_url!);
    const cdpB = await CdpPage.attach(b.connect_url!);
    try {
      // No warm pool here: the browser they share was started for them, headless, with no display or
      // VNC server (nothing would show it), so the screencast is all there is to see.
      const counts = countByName(server.dataDir);
      expect(counts.chromium).toBeGreaterThan(0);
      expect([counts.Xvfb ?? 0, counts.x11vnc ?? 0]).toEqual([0, 0]);
      // …and looks to a page as a headful one does (server/sessions/browser/headlessArgs.ts).
      expect(await cdpA.evaluate('navigator.userAgent')).toMatch(/ Chrome\/\d+\.0\.0\.0 /);
      expect(await cdpA.evaluate('navigator.webdriver')).toBe(false);
      const html = await (await fetch(a.vnc_url!, { headers: { accept: 'text/html' } })).text();
      expect(html).toContain('name="browserdesk-view-kind" content="screencast"');

      const viewA = await openViewer(a.vnc_url!);
      const viewB = await openViewer(b.vnc_url!);
      await untilShows(viewA, 'aa2200');
      await untilShows(viewB, '0044cc');

      // Typing in A's view reaches A's field, and nothing of B's.
      const at = await onCanvas(viewA, (await cdpA.evaluate('innerWidth')) as number, 350, 170);
      await viewA.mouse.click(at.x, at.y);
      await viewA.keyboard.type('alpha');
      await waitForAsync('typed into A', async () => ((await cdpA.evaluate('f.value')) === 'alpha' ? true : undefined));
      expect(await cdpB.evaluate('f.value')).toBe('');

      // B changes while A's view is open: B's view follows, A's still shows A.
      await cdpB.call('Page.navigate', { url: `${siteUrl}/c/00cc44` });
      await untilShows(viewB, '00cc44');
      expect(near(await canvasCentre(viewA), rgbOf('aa2200'))).toBe(true);
      // A's frames as they come, a dozen of them: never B's colours.
      const seen = new Set<string>();
      for (let i = 0; i < 12; i++) seen.add(JSON.stringify(await canvasCentre(viewA)));
      for (const c of seen) {
        expect(near(JSON.parse(c) as number[], rgbOf('0044cc'))).toBe(false);
        expect(near(JSON.parse(c) as number[], rgbOf('00cc44'))).toBe(false);
      }
      await viewA.close();
      await viewB.close();

      // Recorded from its own screencast: the video is A's page, not the shared display.
      await server.api(`/api/sessions/${a.session_id}`, { method: 'DELETE' });
      const file = recordingFileOf(server.dataDir, a.session_id);
      await waitForAsync('A recorded', () => (fs.existsSync(file) && fs.statSync(file).size > 0 ? true : undefined));
      const rgb = execFileSync('ffmpeg', [
        ...['-v', 'error', '-sseof', '-0.3', '-i', file, '-vf', 'crop=2:2:iw/2:ih*3/4', '-frames:v', '1'],
        ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      ]);
      expect(near([...rgb.subarray(0, 3)], rgbOf('aa2200'), 40)).toBe(true);
      const status = SessionStatus.parse(await (await server.api(`/api/session/${a.session_id}/status`)).json());
      expect(status.recording_url).toMatch(/^http/);
    } finally {
      cdpA.close();
      cdpB.close();
    }
  });
});
