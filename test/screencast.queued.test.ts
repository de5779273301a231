import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';
import { ensureViewerBuilt, openViewSession, waitForAsync } from './helpers/viewSession.ts';

/**
 * The vnc_url page of a queued run is served before its session has a kind. When the run is a
 * context session's, the page, which began as the RFB viewer, loads itself again once the run has
 * its browser and shows the screencast of the run's page.
 */

let server: TestServer;
let site: http.Server;
let siteUrl: string;
let browser: Browser;

beforeAll(async () => {
  ensureViewerBuilt();
  server = await startServer({ MAX_SESSIONS: '1', MAX_QUEUED_RUNS: '2' });
  site = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>queued</title><body style="margin:0;height:100vh;background:#cc6600">');
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

describe('a queued context run’s vnc_url page', () => {
  it('waits, then shows the run’s own page by its screencast', async () => {
    const blocker = await openViewSession(server);
    const wf = await postJson(server, '/api/workflows', {
      name: 'queued context',
      flow: {
        title: 'Open and wait',
        steps: [
          { type: 'navigate', url: `${siteUrl}/` },
          { type: 'customStep', name: 'pause', parameters: { message: 'look' } },
        ],
      },
    });
    expect(wf.status).toBe(201);
    const res = await postJson(server, '/api/run_workflow', {
      workflow_id: ((await wf.json()) as { id: string }).id,
      isolation: 'context',
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const run = JSON.parse(text) as { session_id: string; vnc_url: string };

    const html = await (await fetch(run.vnc_url, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain('name="browserdesk-view-kind" content="pending"');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(run.vnc_url);
    await page.locator('[role="status"]', { hasText: 'Waiting for a browser' }).waitFor({ state: 'attached' });

    await blocker.end();
    await page.locator('[data-kind="screencast"]').waitFor({ state: 'attached', timeout: 60_000 });
    await waitForAsync(
      'the run page on the canvas',
      async () => {
        const rgb = await page.evaluate(() => {
          const c = document.querySelector('canvas')!;
          if (!c.width) return [];
          return [
            ...c
              .getContext('2d')!
              .getImageData(c.width >> 1, c.height >> 1, 1, 1)
              .data.slice(0, 3),
          ];
        });
        return rgb.length && Math.abs(rgb[0]! - 0xcc) + Math.abs(rgb[1]! - 0x66) + rgb[2]! < 60 ? true : undefined;
      },
      60_000,
    );
    await page.close();
  });
});
