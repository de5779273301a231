import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { SCREEN } from '../server/sessions/display/display.ts';
import { createWorkflow, runWorkflow } from './helpers/runs.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';
import { grabDisplay, isRed, recordDisplays, type SessionDisplay } from './helpers/displayPixels.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

/**
 * "Chrome is being controlled by automated test software" is browser UI: neither a screencast
 * nor Page.captureScreenshot shows it, only the session's X display does (what a vnc_url viewer,
 * a paused run's viewer and the recording show). Each case paints the page pure red and reads the
 * display's pixels from the top: the page's red must begin right under the toolbar (browser) or
 * at the display's first row (kiosk); the bar would be a light band some 57 rows tall there.
 */

let server: TestServer;
let displays: Map<string, SessionDisplay>;

beforeAll(async () => {
  server = await startServer();
  displays = recordDisplays(server);
});

afterAll(() => closeLeavingNothing(server));

/** The first row (from the top) where the middle column is the page's red: where the page begins. */
function pageTop(f: Buffer): number {
  for (let y = 0; y < SCREEN.height; y++) if (isRed(f, SCREEN.width / 2, y)) return y;
  return -1;
}

const RED = '<!doctype html><title>red</title><body style="margin:0;background:#ff0000;height:100vh"></body>';
const redUrl = `data:text/html,${encodeURIComponent(RED)}`;

async function untilPainted(id: string, top: (t: number) => boolean) {
  return waitForAsync(
    'the red page on the display',
    () => {
      const f = grabDisplay(displays.get(id));
      return isRed(f, SCREEN.width / 2, SCREEN.height - 5) && top(pageTop(f)) ? f : undefined;
    },
    30_000,
  ).catch(() => grabDisplay(displays.get(id)));
}

async function createSession(body: Record<string, unknown>) {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'infobar-test', ...body });
  expect(res.status).toBe(200);
  return CreateWorkflowSessionResponse.parse(await res.json());
}

describe('no automation infobar on the display', () => {
  for (const presentation of ['browser', 'kiosk'] as const) {
    it(`${presentation}: a Playwright client and a Puppeteer client leave the top of the page to the page`, async () => {
      const s = await createSession({ presentation });
      try {
        const pw = await chromium.connectOverCDP(s.connect_url!);
        const page = pw.contexts()[0]!.pages()[0]!;
        await page.goto(redUrl);
        const pp = await puppeteer.connect({ browserWSEndpoint: s.connect_url!, defaultViewport: null });
        const [ppPage] = await pp.pages();
        await ppPage!.goto(redUrl);
        // What @puppeteer/replay sends before each step; Chromium adds the bar to the tab for it.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setAutomationOverride', { enabled: true });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const f = await untilPainted(s.session_id, (t) => (presentation === 'kiosk' ? t === 0 : t > 0 && t < 110));
        // Kiosk: the page from the display's first row. Browser: below the tab strip and toolbar
        // (about 87 rows); the bar would add some 57 more.
        if (presentation === 'kiosk') expect(pageTop(f)).toBe(0);
        else expect(pageTop(f)).toBeLessThan(110);
        await pp.disconnect();
        await pw.close();
      } finally {
        await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
      }
    });
  }

  // Before the policy passed Emulation.setAutomationOverride on as false, the page began at row 59
  // here, under the white "controlled by automated test software" bar.
  it('a run (held at a pause step, so a person watches it) shows its page from the display top', async () => {
    const id = await createWorkflow(server, {
      name: 'infobar-run',
      flow: {
        title: 'red',
        steps: [
          { type: 'navigate', url: redUrl },
          { type: 'customStep', name: 'pause', parameters: { message: 'look' } },
        ],
      },
      variables: [],
    });
    const { body } = await runWorkflow(server, { workflow_id: id });
    expect(body.succeeded).toBe(true);
    const sid = body.session_id!;
    try {
      // Held at the pause step: the navigate step is done and the pause step has begun (the override
      // is sent as each step begins), whatever time that took.
      await waitForAsync(
        'the pause step',
        async () => {
          const r = await server.api(`/api/run_workflow_status?session_id=${sid}`);
          const st = (await r.json()) as { status?: string; completed?: boolean; pause?: unknown };
          if (st.completed) throw new Error(`run ended: ${JSON.stringify(st).slice(0, 600)}`);
          return st.pause ? true : undefined;
        },
        30_000,
      );
      const f = await untilPainted(sid, (t) => t === 0);
      expect(pageTop(f)).toBe(0);
    } finally {
      await server.api(`/api/sessions/${sid}`, { method: 'DELETE' });
    }
  });
});
