import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Page } from 'playwright-core';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { SCREEN } from '../server/sessions/display/display.ts';
import type { BrowserSessionManager } from '../server/sessions/sessionManager.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';
import { grabDisplay, isRed, recordDisplays, type SessionDisplay } from './helpers/displayPixels.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

/**
 * Kiosk and browser presentations, checked on the session's real X display: what a vnc_url viewer
 * and the recording show. A page painted pure red is loaded through connect_url; in kiosk the red
 * reaches the display's top edge (no tab strip, address bar or infobar above it), in browser the
 * top of the display is Chromium's own window.
 */

let server: TestServer;
let displays: Map<string, SessionDisplay>;

beforeAll(async () => {
  server = await startServer();
  displays = recordDisplays(server);
});

afterAll(() => closeLeavingNothing(server));

async function create(body: Record<string, unknown> = {}) {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'presentation-test', ...body });
  expect(res.status).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

const paintRed = (page: Page) =>
  page.setContent('<!doctype html><title>red</title><body style="margin:0;background:#ff0000;height:100vh"></body>');
const viewport = (page: Page) =>
  page.evaluate(() => ({ width: innerWidth, height: innerHeight, outerWidth, outerHeight }));

/**
 * The page has the whole window (no chrome: inner size is outer size) and the window the whole
 * display. Chromium on X11 keeps a window one pixel short of the screen in each direction, even
 * fullscreen; that pixel is all that is not the page.
 */
function expectFillsDisplay(v: Awaited<ReturnType<typeof viewport>>) {
  expect(v.width).toBe(v.outerWidth);
  expect(v.height).toBe(v.outerHeight);
  expect(v.width).toBeGreaterThanOrEqual(SCREEN.width - 1);
  expect(v.height).toBeGreaterThanOrEqual(SCREEN.height - 1);
}

async function end(id: string) {
  await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
}

describe('presentation', () => {
  it('kiosk by default: the page alone fills the display, and connectOverCDP still opens and drives new pages', async () => {
    const s = await create();
    const browser = await chromium.connectOverCDP(s.connect_url!);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0]!;
      await paintRed(page);
      expectFillsDisplay(await viewport(page));
      // The display's first rows are the page's: no tab strip, address bar or automation infobar.
      const frame = await waitForAsync('the page to fill the display', () => {
        const f = grabDisplay(displays.get(s.session_id));
        return isRed(f, 5, 2) && isRed(f, SCREEN.width - 5, SCREEN.height - 5) ? f : undefined;
      });
      // A kiosk started cold is launched as one: no "press and hold Esc to exit full screen"
      // notice covers the top of the page in its first seconds.
      const topMiddle = [20, 40, 60, 80].map((y) => [SCREEN.width / 2, y] as const);
      expect(topMiddle.filter(([x, y]) => !isRed(frame, x, y))).toEqual([]);

      const fresh = await context.newPage();
      await fresh.goto('data:text/html,<title>second</title><h1>second page</h1>');
      expect(await fresh.title()).toBe('second');
      expectFillsDisplay(await viewport(fresh));
    } finally {
      await browser.close();
      await end(s.session_id);
    }
  });

  it("browser: Chromium's whole window, with its tab strip and address bar above a smaller page", async () => {
    const s = await create({ presentation: 'browser' });
    const browser = await chromium.connectOverCDP(s.connect_url!);
    try {
      const page = browser.contexts()[0]!.pages()[0]!;
      await paintRed(page);
      const inner = await viewport(page);
      expect(inner.width).toBe(inner.outerWidth);
      // The tab strip and the toolbar take about 90 rows; an infobar (such as "controlled by
      // automated test software", which --enable-automation would add) would take some 40 more.
      expect(inner.outerHeight - inner.height).toBeGreaterThan(50);
      expect(inner.outerHeight - inner.height).toBeLessThan(110);
      await waitForAsync('the page to be painted', () =>
        isRed(grabDisplay(displays.get(s.session_id)), SCREEN.width / 2, SCREEN.height - 5) ? true : undefined,
      );
      const frame = grabDisplay(displays.get(s.session_id));
      expect(isRed(frame, SCREEN.width / 2, 2)).toBe(false);
      expect(isRed(frame, SCREEN.width / 2, inner.outerHeight - inner.height + 2)).toBe(true);
    } finally {
      await browser.close();
      await end(s.session_id);
    }
  });

  it('a warm-pool browser (launched kiosk, the default) leaves fullscreen for a browser session', async () => {
    const pooled = await startServer({ WARM_POOL_SIZE: '1' });
    try {
      await (pooled.app.sessions as unknown as BrowserSessionManager).whenWarm(30_000);
      const res = await postJson(pooled, '/api/create_workflow_session', {
        workflow_name: 'presentation-test',
        presentation: 'browser',
      });
      expect(res.status).toBe(200);
      const s = CreateWorkflowSessionResponse.parse(await res.json());
      const browser = await chromium.connectOverCDP(s.connect_url!);
      try {
        // The window is normal when the URLs are handed out; the page hears of its new size a
        // frame or so later (seen once on a loaded host), so it is asked until it has.
        const page = browser.contexts()[0]!.pages()[0]!;
        const inner = await waitForAsync('the page to lose the fullscreen window', async () => {
          const v = await viewport(page);
          return v.outerHeight - v.height > 50 ? v : undefined;
        });
        expect(inner.outerHeight - inner.height).toBeGreaterThan(50);
      } finally {
        await browser.close();
      }
    } finally {
      await pooled.close();
      fs.rmSync(pooled.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });

  it('refuses a presentation it does not know, naming the field', async () => {
    const res = await postJson(server, '/api/create_workflow_session', {
      workflow_name: 'presentation-test',
      presentation: 'fullscreen',
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { issues?: { path: string }[] };
    expect(body.issues?.map((i) => i.path)).toEqual(['presentation']);
  });
});
