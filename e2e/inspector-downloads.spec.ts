import http from 'node:http';
import type { Download } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';

// Issue 26, item 9: an ended session's inspector hands out all its downloads as one zip (fetched
// with the key) and its recording as a file.
const PAGE = `<!doctype html><title>Reports</title>
<a id="a" href="/a.txt" download="a.txt">A</a> <a id="b" href="/b.csv" download="b.csv">B</a>`;

const bytesOf = async (d: Download) => {
  const chunks: Buffer[] = [];
  for await (const c of await d.createReadStream()) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

test('Download all (zip) and Download recording', async ({ authed: page, api }, testInfo) => {
  const site = http.createServer((req, res) => {
    if (req.url === '/a.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('first file\n');
    if (req.url === '/b.csv') return res.writeHead(200, { 'content-type': 'text/csv' }).end('x,y\n1,2\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  const served = await listenOnLoopback(site);
  const siteUrl = `${served.origin}/`;
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name: `e2e downloads ${Date.now()}`,
        flow: {
          title: 'Two downloads',
          steps: [
            { type: 'navigate', url: siteUrl },
            { type: 'click', selectors: [['#a']], offsetX: 2, offsetY: 2 },
            { type: 'click', selectors: [['#b']], offsetX: 2, offsetY: 2 },
            { type: 'waitForExpression', expression: 'performance.now() > 2500' },
          ],
        },
        variables: [],
      },
    });
    expect(created.status()).toBe(201);
    const run = await api.post('/api/run_workflow', {
      form: { workflow_id: ((await created.json()) as { id: string }).id },
    });
    expect(run.status()).toBe(200);
    const { session_id: sessionId } = (await run.json()) as { session_id: string };
    await expect
      .poll(async () => ((await (await api.get(`/api/sessions/${sessionId}`)).json()) as { state: string }).state, {
        timeout: 45_000,
      })
      .toBe('ended');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/sessions/${sessionId}`);
    const all = page.getByRole('button', { name: 'Download all (2 files, zip)' });
    await expect(all).toBeVisible({ timeout: 20_000 });
    const [zip] = await Promise.all([page.waitForEvent('download'), all.click()]);
    expect(zip.suggestedFilename()).toBe(`session-${sessionId.slice(0, 8)}-files.zip`);
    const zipBytes = await bytesOf(zip);
    expect(zipBytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zipBytes.includes(Buffer.from('a.txt'))).toBe(true);
    expect(zipBytes.includes(Buffer.from('b.csv'))).toBe(true);

    const recording = page.getByRole('link', { name: 'Download recording' });
    await expect(recording).toBeVisible({ timeout: 20_000 });
    const [video] = await Promise.all([page.waitForEvent('download'), recording.click()]);
    expect(video.suggestedFilename()).toBe(`session-${sessionId.slice(0, 8)}.mp4`);
    const mp4 = await bytesOf(video);
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1)).toBe(true);
      await page.getByRole('heading', { name: 'Recording' }).scrollIntoViewIfNeeded();
      await keepScreenshot(page, testInfo, `inspector-downloads-${width}`);
    }
  } finally {
    await served.close();
  }
});
