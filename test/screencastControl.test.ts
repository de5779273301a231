import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewerInputMessage } from '../contract/viewer.ts';
import {
  openScreencastSocket,
  screencastDriverServer,
  type ScreencastViewerSocket,
} from './helpers/screencastDriver.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { CdpPage, openViewSession, waitForAsync, type ViewSession } from './helpers/viewSession.ts';

/**
 * The live view of a context session drives its pages through their screencast
 * (server/sessions/display/screencastControl.ts). Run here on an ordinary session's hub, through the
 * same code the /s/:id/vnc route runs: clicks land where they were made on the frame, keys and
 * pasted text reach the focused field, the wheel scrolls.
 */

const FORM_PAGE = `data:text/html,${encodeURIComponent(`<!doctype html><body style="margin:0;height:4000px">
<form id=form style="position:fixed;left:200px;top:150px" onsubmit="window.submitted=f.value;return false">
<input id=f style="width:300px;height:40px;font:20px monospace"></form>
<script>window.clicks=[];addEventListener('mousedown',e=>clicks.push([e.clientX,e.clientY,e.button,e.detail]))</script>`)}`;

let server: TestServer;
let session: ViewSession;
let cdp: CdpPage;
let driver: Awaited<ReturnType<typeof screencastDriverServer>>;
let viewer: ScreencastViewerSocket;

beforeAll(async () => {
  server = await startServer();
  session = await openViewSession(server);
  cdp = await CdpPage.attach(session.connectUrl);
  await cdp.call('Page.navigate', { url: FORM_PAGE });
  await waitForAsync('form page', async () =>
    (await cdp.evaluate('!!document.getElementById("f")')) ? true : undefined,
  );
  // Frames at most 640 wide, half the page or less: a click must be scaled up to land where it was made.
  driver = await screencastDriverServer(() => server.app.sessions.get(session.id)!.hub, {
    maxWidth: 640,
    maxHeight: 640,
  });
  viewer = await openScreencastSocket(driver.url);
  expect(viewer.frame().width).toBeLessThan((await cdp.evaluate('innerWidth')) as number);
});

afterAll(async () => {
  viewer?.ws.close();
  await driver?.close();
  cdp?.close();
  await server?.close();
});

/** The frame point over CSS point (x, y) of the page. */
async function onFrame(x: number, y: number): Promise<{ x: number; y: number }> {
  const width = (await cdp.evaluate('innerWidth')) as number;
  const scale = viewer.frame().width / width;
  return { x: x * scale, y: y * scale };
}

const key = (k: string, code: string, modifiers = 0): ViewerInputMessage[] => [
  { t: 'key', type: 'down', key: k, code, modifiers },
  { t: 'key', type: 'up', key: k, code, modifiers },
];

describe('screencast input', () => {
  it('lands a click where it was made on the frame, and focuses the field there', async () => {
    const at = await onFrame(350, 170);
    viewer.send({ t: 'pointer', type: 'move', ...at });
    viewer.send({ t: 'pointer', type: 'down', ...at, button: 'left', buttons: 1, clickCount: 1 });
    viewer.send({ t: 'pointer', type: 'up', ...at, button: 'left', clickCount: 1 });
    const clicks = await waitForAsync('the click', async () => {
      const c = (await cdp.evaluate('window.clicks')) as number[][];
      return c.length ? c : undefined;
    });
    const [x, y, button, detail] = clicks[0]!;
    // Within a frame pixel or two of where it was made, whatever the frame's scale.
    expect(Math.abs(x! - 350)).toBeLessThanOrEqual(3);
    expect(Math.abs(y! - 170)).toBeLessThanOrEqual(3);
    expect([button, detail]).toEqual([0, 1]);
    expect(await cdp.evaluate('document.activeElement.id')).toBe('f');
  });

  it('types keys, shortcuts and pasted text into the focused field, and Enter submits it', async () => {
    const inputs: ViewerInputMessage[] = [
      ...key('Shift', 'ShiftLeft', 8).slice(0, 1),
      ...key('H', 'KeyH', 8),
      { t: 'key', type: 'up', key: 'Shift', code: 'ShiftLeft' },
      ...key('i', 'KeyI'),
      { t: 'text', text: ' thereX' },
      ...key('Backspace', 'Backspace'),
    ];
    for (const i of inputs) viewer.send(i);
    await waitForAsync('typed text', async () => ((await cdp.evaluate('f.value')) === 'Hi there' ? true : undefined));
    for (const i of key('Enter', 'Enter')) viewer.send(i);
    await waitForAsync('the form submitted', async () =>
      (await cdp.evaluate('window.submitted')) === 'Hi there' ? true : undefined,
    );
    // Ctrl+A selects all (no "a" typed), so the next key replaces the whole value.
    for (const i of [...key('a', 'KeyA', 2), ...key('z', 'KeyZ')]) viewer.send(i);
    await waitForAsync('the value replaced', async () => ((await cdp.evaluate('f.value')) === 'z' ? true : undefined));
  });

  it('scrolls the page with the wheel', async () => {
    expect(await cdp.evaluate('scrollY')).toBe(0);
    viewer.send({ t: 'wheel', ...(await onFrame(100, 400)), deltaX: 0, deltaY: 600 });
    await waitForAsync('the page scrolled', async () =>
      ((await cdp.evaluate('scrollY')) as number) > 0 ? true : undefined,
    );
  });
});
