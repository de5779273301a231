import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openScreencastSession } from './helpers/screencastSession.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { ensureViewerBuilt, waitForAsync, type CdpPage, type ViewSession } from './helpers/viewSession.ts';

/**
 * The vnc_url page of a session with no display of its own (a context session): it draws the
 * session's screencast and, with a control token, sends the person's mouse and keys to the page.
 * SCREENSHOTS=dir keeps pictures of it at desktop and phone widths.
 */

let server: TestServer;
let session: ViewSession;
let cdp: CdpPage;
let browser: Browser;

beforeAll(async () => {
  ensureViewerBuilt();
  server = await startServer();
  ({ session, cdp } = await openScreencastSession(server));
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});

afterAll(async () => {
  await browser?.close();
  cdp?.close();
  await server?.close();
});

async function openViewer(url: string, width = 1280, height = 800): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(url);
  await page.locator('[role="status"]', { hasText: 'Connected' }).waitFor({ state: 'attached' });
  await waitForAsync('a frame drawn', async () =>
    (await page.evaluate(() => Number(document.querySelector('canvas')?.dataset.frames ?? 0))) > 0 ? true : undefined,
  );
  return page;
}

/** Where CSS point (x, y) of the session's page is on the viewer's canvas (object-fit: contain). */
async function onCanvas(page: Page, x: number, y: number): Promise<{ x: number; y: number }> {
  const innerWidth = (await cdp.evaluate('innerWidth')) as number;
  return page.evaluate(
    ([px, py, iw]) => {
      const c = document.querySelector('canvas')!;
      const r = c.getBoundingClientRect();
      const scale = Math.min(r.width / c.width, r.height / c.height);
      const left = r.left + (r.width - c.width * scale) / 2;
      const top = r.top + (r.height - c.height * scale) / 2;
      const k = (c.width / iw!) * scale;
      return { x: left + px! * k, y: top + py! * k };
    },
    [x, y, innerWidth],
  );
}

async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS) await page.screenshot({ path: `${process.env.SCREENSHOTS}/${name}.png` });
}

describe('the screencast vnc_url page', () => {
  it('shows the session page, and a click and typing on it reach the field', async () => {
    await cdp.evaluate('f.value="";f.blur()');
    const page = await openViewer(session.vncUrl);
    const canvas = page.locator('canvas');
    await expect(canvas.getAttribute('role')).resolves.toBe('application');
    // The screen is a Tab stop, and has the focus ring when it has the keyboard.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('CANVAS');
    await shoot(page, 'screencast-1280-focused');
    const at = await onCanvas(page, 350, 170);
    await page.mouse.click(at.x, at.y);
    await waitForAsync('the field focused', async () =>
      (await cdp.evaluate('document.activeElement.id')) === 'f' ? true : undefined,
    );
    await page.keyboard.type('Hello, world');
    await page.keyboard.press('Backspace');
    await waitForAsync('typed text', async () =>
      (await cdp.evaluate('f.value')) === 'Hello, worl' ? true : undefined,
    );
    await page.keyboard.press('Enter');
    await waitForAsync('the form submitted', async () =>
      (await cdp.evaluate('window.submitted')) === 'Hello, worl' ? true : undefined,
    );
    // Ctrl+Alt+Shift gives the keyboard back: the canvas loses focus, and a key after it stays here.
    await page.keyboard.down('Control');
    await page.keyboard.down('Alt');
    await page.keyboard.down('Shift');
    await page.keyboard.up('Shift');
    await page.keyboard.up('Alt');
    await page.keyboard.up('Control');
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('CANVAS');
    await page.keyboard.type('x');
    await shoot(page, 'screencast-1280-typed');
    expect(await cdp.evaluate('f.value')).toBe('Hello, worl');
    await page.close();
  });

  it('fits a phone-wide frame and still lands a tap on the field', async () => {
    await cdp.evaluate('f.value="";f.blur()');
    const page = await openViewer(session.vncUrl, 390, 844);
    const at = await onCanvas(page, 350, 170);
    await page.mouse.click(at.x, at.y);
    await page.keyboard.type('ok');
    await waitForAsync('typed on a phone-wide viewer', async () =>
      (await cdp.evaluate('f.value')) === 'ok' ? true : undefined,
    );
    await shoot(page, 'screencast-390');
    await page.close();
  });

  it('with a view token, or view_only, shows the page but is no Tab stop and sends nothing', async () => {
    await cdp.evaluate('f.value="";window.keys=[];window.clicks=[];f.focus()');
    for (const url of [session.liveUrl.replace('/live', '/vnc'), `${session.vncUrl}&view_only=1`]) {
      const page = await openViewer(url);
      const canvas = page.locator('canvas');
      expect(await canvas.getAttribute('role')).toBe('img');
      expect(await canvas.getAttribute('tabindex')).toBeNull();
      const at = await onCanvas(page, 350, 170);
      await page.mouse.click(at.x, at.y);
      await canvas.focus().catch(() => {});
      await page.keyboard.type('no');
      await shoot(page, 'screencast-view-only');
      await page.close();
    }
    // A control viewer's text after them lands, so the view-only input had its chance to arrive first.
    const page = await openViewer(session.vncUrl);
    await page.locator('canvas').focus();
    await page.keyboard.type('Z');
    await waitForAsync('the control viewer typed', async () =>
      (await cdp.evaluate('f.value')) === 'Z' ? true : undefined,
    );
    expect(await cdp.evaluate('window.clicks.length')).toBe(0);
    await page.close();
  });
});
