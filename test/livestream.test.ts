import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { startViewFixture, type PageServer, type ViewFixture } from './helpers/viewFixture.ts';
import { waitForAsync, type CdpPage, type ViewSession } from './helpers/viewSession.ts';

let pages: PageServer;
let session: ViewSession;
let cdp: CdpPage;
let browser: Browser;
let fixture: ViewFixture | undefined;

beforeAll(async () => {
  fixture = await startViewFixture('/solid/cc2200');
  ({ pages, session, cdp, browser } = fixture);
});

afterAll(() => fixture?.close());

const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 24);

/** Frames drawn so far and the colour in the middle of the livestream canvas. */
function canvasState(page: Page): Promise<{ frames: number; rgb: number[] }> {
  return page.evaluate(() => {
    const canvas = document.querySelector('canvas')!;
    if (!canvas.width) return { frames: 0, rgb: [] };
    const px = canvas.getContext('2d')!.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
    return { frames: Number(canvas.dataset.frames ?? 0), rgb: [px[0]!, px[1]!, px[2]!] };
  });
}

async function waitForColour(page: Page, rgb: number[]): Promise<number> {
  return waitForAsync(`livestream colour ${rgb}`, async () => {
    const s = await canvasState(page);
    return s.frames > 0 && near(s.rgb, rgb) ? s.frames : undefined;
  });
}

describe('livestream_url', () => {
  it('serves a view-only page that receives frames of the session page and follows it', async () => {
    const res = await fetch(session.liveUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBeNull();

    const page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
    await page.goto(session.liveUrl);
    await waitForColour(page, [0xcc, 0x22, 0x00]);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ state: 'attached' });

    await cdp.goto(`${pages.url}/solid/00aa44`);
    await waitForColour(page, [0x00, 0xaa, 0x44]);
    await page.close();
  });

  it('follows the active tab: a new tab, a tab brought to front, and back when one closes', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
    await cdp.goto(`${pages.url}/solid/00aa44`);
    await page.goto(session.liveUrl);
    await waitForColour(page, [0x00, 0xaa, 0x44]);

    const { targetId } = (await cdp.call('Target.createTarget', { url: `${pages.url}/solid/7722cc` })) as {
      targetId: string;
    };
    await waitForColour(page, [0x77, 0x22, 0xcc]);
    const { targetInfos } = (await cdp.call('Target.getTargets')) as {
      targetInfos: { targetId: string; type: string; url: string }[];
    };
    const first = targetInfos.find((t) => t.type === 'page' && t.url.endsWith('/solid/00aa44'))!;
    await cdp.call('Target.activateTarget', { targetId: first.targetId });
    await waitForColour(page, [0x00, 0xaa, 0x44]);
    await cdp.call('Target.activateTarget', { targetId });
    await waitForColour(page, [0x77, 0x22, 0xcc]);
    await cdp.call('Target.closeTarget', { targetId });
    await waitForColour(page, [0x00, 0xaa, 0x44]);
    await page.close();
  });

  it('streams frames while the page moves, and input sent by the viewer changes nothing', async () => {
    // A page that repaints every animation frame, so the screencast has something to send.
    await cdp.call('Page.navigate', {
      url: `data:text/html,<body style="margin:0"><canvas id=c></canvas><script>window.clicks=[];addEventListener('mousedown',()=>clicks.push(1));const c=document.getElementById('c');c.width=innerWidth;c.height=innerHeight;const g=c.getContext('2d');(function f(t){g.fillStyle='hsl('+(t/4%25360)+',80%25,50%25)';g.fillRect(0,0,c.width,c.height);requestAnimationFrame(f)})(0)</script>`,
    });
    const ws = new WebSocket(session.liveUrl.replace(/^http/, 'ws'));
    // What a CDP client or an RFB client would send to click; the stream must ignore both.
    ws.on('open', () => {
      ws.send(
        JSON.stringify({
          id: 1,
          method: 'Input.dispatchMouseEvent',
          params: { type: 'mousePressed', x: 10, y: 10, button: 'left', clickCount: 1 },
        }),
      );
      ws.send(Buffer.from([5, 1, 0, 10, 0, 10]));
    });
    const frames: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        frames.push(data);
        if (frames.length === 10) resolve();
      });
      ws.on('close', () => reject(new Error('closed before 10 frames')));
    });
    ws.close();
    expect(await cdp.evaluate('window.clicks.length')).toBe(0);
    for (const f of frames) {
      const capturedAt = f.readDoubleBE(0);
      expect(Math.abs(capturedAt - Date.now())).toBeLessThan(60_000); // a wall-clock capture time
      expect(f.subarray(8, 10)).toEqual(Buffer.from([0xff, 0xd8])); // JPEG start-of-image
    }
    const distinct = new Set(frames.map((f) => f.subarray(8).toString('base64')));
    expect(distinct.size).toBeGreaterThan(1);
  });

  it('closes the frames WebSocket for a wrong or missing token', async () => {
    for (const url of [session.liveUrl.replace(/token=[^&]+/, 'token=wrong'), session.liveUrl.replace(/\?.*$/, '')]) {
      const code = await new Promise<number>((resolve) => {
        const ws = new WebSocket(url.replace(/^http/, 'ws'));
        ws.once('message', () => resolve(-1));
        ws.once('close', (c) => resolve(c));
        ws.once('error', () => {});
      });
      expect(code).toBe(1008);
    }
    expect((await fetch(session.liveUrl.replace(/token=[^&]+/, 'token=wrong'))).status).toBe(401);
  });
});
