import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from './helpers/server.ts';
import { startViewFixture, type PageServer, type ViewFixture } from './helpers/viewFixture.ts';
import { openViewSession, waitForAsync, type CdpPage, type ViewSession } from './helpers/viewSession.ts';

// The session's page: one solid colour, so the noVNC canvas can be checked pixel by pixel.
const COLOUR = '1e90ff';
const RGB = [0x1e, 0x90, 0xff];

let server: TestServer;
let pages: PageServer;
let session: ViewSession;
let cdp: CdpPage;
let browser: Browser;
let fixture: ViewFixture | undefined;

beforeAll(async () => {
  fixture = await startViewFixture(`/solid/${COLOUR}`);
  ({ server, pages, session, cdp, browser } = fixture);
});

afterAll(() => fixture?.close());

/** The colour of the noVNC canvas at the middle of the remote screen (inside the web page). */
function centrePixel(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const canvas = document.querySelector('canvas')!;
    const ctx = canvas.getContext('2d')!;
    return [...ctx.getImageData(Math.floor(canvas.width / 2), Math.floor(canvas.height * 0.6), 1, 1).data.slice(0, 3)];
  });
}

const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 24);

async function openViewer(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.locator('[role="status"]', { hasText: 'Connected' }).waitFor();
  return page;
}

/** Click the remote screen at a fraction of its size, through the noVNC canvas. */
async function clickRemote(page: Page, fx: number, fy: number): Promise<void> {
  const box = (await page.locator('canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

const clicks = async () => (await cdp.evaluate('window.clicks')) as (number[] | string)[];

describe('vnc_url', () => {
  it('serves the viewer page, embeddable on any origin, and its canvas shows the session page', async () => {
    const res = await fetch(session.vncUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy') ?? '').not.toContain('frame-ancestors');

    const page = await openViewer(session.vncUrl);
    await waitForAsync('session colour on the canvas', async () =>
      near(await centrePixel(page), RGB) ? true : undefined,
    );
    await page.close();
  });

  it('forwards a click and a key press through VNC to the page', async () => {
    const page = await openViewer(session.vncUrl);
    await cdp.evaluate('window.clicks.length = 0');
    await clickRemote(page, 0.5, 0.6);
    await page.keyboard.press('x');
    const got = await waitForAsync('click and key on the page', async () => {
      const c = await clicks();
      return c.length >= 2 ? c : undefined;
    });
    expect(got.some((c) => Array.isArray(c))).toBe(true);
    expect(got).toContain('x');
    await page.close();
  });

  it('drops input from a view token, while a control token still drives the page', async () => {
    const viewUrl = session.vncUrl.replace(/token=[^&]+/, `token=${session.viewToken}`);
    // The page marks a view token view-only itself; check that, then take the mark out so the
    // noVNC client does send input and it is the bridge that has to drop it.
    const marked = await openViewer(viewUrl);
    await expect(marked.locator('[data-view-only="true"]').count()).resolves.toBe(1);
    await marked.close();
    const viewer = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await viewer.addInitScript(() => {
      new MutationObserver(() => document.querySelector('meta[name="browserdesk-view-only"]')?.remove()).observe(
        document,
        { childList: true, subtree: true },
      );
    });
    await viewer.goto(viewUrl);
    await viewer.locator('[role="status"]', { hasText: 'Connected' }).waitFor();
    await expect(viewer.locator('[data-view-only="false"]').count()).resolves.toBe(1);
    const driver = await openViewer(session.vncUrl);
    await cdp.evaluate('window.clicks.length = 0');

    // The view-token page sends input (its own view_only is off); the bridge must drop it.
    await clickRemote(viewer, 0.25, 0.6);
    await viewer.keyboard.press('v');
    // Then the control page clicks elsewhere; once that arrives, anything from the viewer would have too.
    await clickRemote(driver, 0.75, 0.6);
    await driver.keyboard.press('c');
    const got = await waitForAsync('control input on the page', async () => {
      const c = await clicks();
      return c.includes('c') ? c : undefined;
    });
    expect(got).not.toContain('v');
    const xs = got.filter((c): c is number[] => Array.isArray(c)).map((c) => c[0]!);
    expect(xs.length).toBeGreaterThan(0);
    // Only clicks on the right half (the control page's) reached the page.
    expect(xs.every((x) => x > 640)).toBe(true);
    // The view-token page still sees the screen.
    await waitForAsync('session colour in the view-only viewer', async () =>
      near(await centrePixel(viewer), RGB) ? true : undefined,
    );
    await viewer.close();
    await driver.close();
  });

  it('works inside an iframe on another origin', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.url}/solid/ffffff`);
    await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      f.style.cssText = 'width:800px;height:500px;border:0';
      document.body.append(f);
    }, `${session.vncUrl}&view_only=1&scale=fit&accent=%23ff00aa&background=%23000000`);
    const frame = page.frameLocator('iframe');
    await frame.locator('[role="status"]', { hasText: 'Connected' }).waitFor();
    await expect(frame.locator('[data-view-only="true"]').count()).resolves.toBe(1);
    await page.close();
  });

  it('shows a visible message for a bad option instead of a viewer', async () => {
    const page = await browser.newPage();
    await page.goto(`${session.vncUrl}&accent=red;x:expression(1)`);
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/accent: must be a hex colour/);
    await expect(page.locator('canvas').count()).resolves.toBe(0);
    await page.close();
  });

  it('shows reconnecting after a dropped connection, connected again, and ended when the session ends', async () => {
    const other = await openViewSession(server);
    const page = await openViewer(other.vncUrl);
    const status = page.getByRole('status');
    for (const client of server.app.websocketServer.clients) client.terminate();
    await status.filter({ hasText: /Reconnecting/ }).waitFor({ state: 'attached' });
    await status.filter({ hasText: 'Connected' }).waitFor({ state: 'attached' });
    await other.end();
    await status.filter({ hasText: 'Session ended' }).waitFor();
    await page.close();
  });
});
