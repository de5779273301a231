import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_MESSAGE_BYTES, ViewCloseCode } from '../../contract/viewer.ts';
import { openScreencastSocket, type ScreencastViewerSocket } from '../helpers/screencastDriver.ts';
import { openScreencastSession } from '../helpers/screencastSession.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { waitForAsync, type CdpPage, type ViewSession } from '../helpers/viewSession.ts';

/**
 * A context session's vnc_url is a screencast that takes input (server/routes/sessionViews.ts): only
 * a control token's socket without view_only drives it. Attacks: a view token, or view_only, sending
 * input; malformed, oversized, out-of-range and flooding messages. Each fails that socket only; the
 * session stays live and drivable.
 */

let server: TestServer;
let session: ViewSession;
let cdp: CdpPage;

beforeAll(async () => {
  server = await startServer();
  ({ session, cdp } = await openScreencastSession(server));
});

afterAll(async () => {
  cdp?.close();
  await server?.close();
});

const ws = (url: string) => url.replace(/^http/, 'ws');
const withToken = (token: string) => ws(session.vncUrl.replace(/token=[^&]+/, `token=${token}`));
const pageInput = async () => ({
  clicks: ((await cdp.evaluate('window.clicks')) as unknown[]).length,
  keys: ((await cdp.evaluate('window.keys')) as unknown[]).length,
  value: (await cdp.evaluate('f.value')) as string,
});

/** Every kind of input a viewer can send, aimed at the field. */
function sendEverything(v: ScreencastViewerSocket): void {
  const at = { x: (350 * v.frame().width) / 1280, y: (170 * v.frame().width) / 1280 };
  v.send({ t: 'pointer', type: 'down', ...at, button: 'left', buttons: 1, clickCount: 1 });
  v.send({ t: 'pointer', type: 'up', ...at, button: 'left', clickCount: 1 });
  v.send({ t: 'key', type: 'down', key: 'q', code: 'KeyQ' });
  v.send({ t: 'key', type: 'up', key: 'q', code: 'KeyQ' });
  v.send({ t: 'text', text: 'injected' });
}

/** Wait until the server has read everything sent on `v` so far (a ping is answered after the frames before it). */
const drained = (v: ScreencastViewerSocket) =>
  new Promise<void>((resolve) => (v.ws.once('pong', () => resolve()), v.ws.ping()));

/** A control socket types `marker` into the field (clicking it first): the session is still drivable, and what was sent before has landed. */
async function typeMarker(marker: string): Promise<void> {
  await cdp.evaluate('f.focus()');
  const v = await openScreencastSocket(ws(session.vncUrl));
  v.send({ t: 'text', text: marker });
  await waitForAsync(`marker ${marker}`, async () => ((await pageInput()).value.endsWith(marker) ? true : undefined));
  v.ws.close();
}

async function stillLive(): Promise<void> {
  const res = await server.api(`/api/sessions/${session.id}`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { state: string }).state).toBe('live');
}

describe('screencast live view input', () => {
  it('serves the screencast page, named by its meta tag, with the view-only tag for a view token', async () => {
    const control = await (await fetch(session.vncUrl, { headers: { accept: 'text/html' } })).text();
    expect(control).toContain('name="browserdesk-view-kind" content="screencast"');
    expect(control).not.toContain('browserdesk-view-only');
    const view = await (await fetch(session.liveUrl.replace('/live', '/vnc'))).text();
    expect(view).toContain('name="browserdesk-view-kind" content="screencast"');
    expect(view).toContain('name="browserdesk-view-only" content="true"');
  });

  it('a view token sees the frames but its input reaches nothing', async () => {
    await cdp.evaluate('f.value="";window.clicks=[];window.keys=[];f.blur()');
    const v = await openScreencastSocket(withToken(session.viewToken));
    sendEverything(v);
    await drained(v);
    await typeMarker('M1');
    expect(await pageInput()).toEqual({ clicks: 0, keys: 0, value: 'M1' });
    v.ws.close();
  });

  it('a control token with view_only=1 cannot send input either', async () => {
    await cdp.evaluate('f.value="";window.clicks=[];window.keys=[];f.blur()');
    const v = await openScreencastSocket(`${ws(session.vncUrl)}&view_only=1`);
    sendEverything(v);
    await drained(v);
    await typeMarker('M2');
    expect(await pageInput()).toEqual({ clicks: 0, keys: 0, value: 'M2' });
    v.ws.close();
  });

  it('the same input on a control socket does reach the page (so the two refusals above are the check)', async () => {
    await cdp.evaluate('f.value="";window.clicks=[];window.keys=[];f.blur()');
    const v = await openScreencastSocket(ws(session.vncUrl));
    sendEverything(v);
    await waitForAsync('input typed', async () => ((await pageInput()).value === 'qinjected' ? true : undefined));
    expect((await pageInput()).clicks).toBe(1);
    v.ws.close();
  });

  it('closes the socket with 1008 on a malformed, oversized or out-of-range message, and nothing reaches the page', async () => {
    await cdp.evaluate('f.value="";window.clicks=[];window.keys=[];f.focus()');
    const bad: (string | Buffer)[] = [
      'not json',
      Buffer.from([1, 2, 3]),
      JSON.stringify({ t: 'text', text: 'x'.repeat(MAX_INPUT_MESSAGE_BYTES) }),
      JSON.stringify({ t: 'pointer', type: 'down', x: 1e6, y: 5, button: 'left', clickCount: 1 }),
      '{"t":"pointer","type":"down","x":1e999,"y":5}',
      JSON.stringify({ t: 'key', type: 'down', key: 'AudioVolumeUp' }),
      JSON.stringify({ t: 'key', type: 'down', key: 'a', code: 'KeyA', modifiers: 255 }),
      JSON.stringify({ t: 'text', text: 'y'.repeat(2001) }),
      JSON.stringify({ id: 1, method: 'Browser.close', params: {} }),
      JSON.stringify({ t: 'text', text: 'z', method: 'Runtime.evaluate' }),
      '{"__proto__":{"t":"text","text":"p"}}',
      'null',
    ];
    for (const message of bad) {
      const v = await openScreencastSocket(ws(session.vncUrl));
      v.send(message);
      const { code, reason } = await v.closed;
      expect(code, String(message).slice(0, 60)).toBe(ViewCloseCode.unauthorized);
      expect(reason).toMatch(/^invalid input: /);
    }
    await typeMarker('M3');
    expect(await pageInput()).toEqual({ clicks: 0, keys: 0, value: 'M3' });
    await stillLive();
  });

  it('closes a socket that floods input faster than the tab takes it; the session stays live', async () => {
    const v = await openScreencastSocket(ws(session.vncUrl));
    const move = JSON.stringify({ t: 'pointer', type: 'move', x: 10, y: 10 });
    for (let i = 0; i < 5000; i++) v.send(move);
    const { code, reason } = await v.closed;
    expect(code).toBe(ViewCloseCode.unauthorized);
    expect(reason).toContain('too many');
    await stillLive();
    await typeMarker('M4');
  });
});
