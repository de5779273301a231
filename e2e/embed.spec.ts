import http from 'node:http';
import { chromium } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';

/** A customer's site: another origin (its own loopback port) serving one page with `body` in it. */
async function customerSite(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(
      `<!doctype html><html lang="en"><title>Acme support</title><link rel="icon" href="data:,"><h1>Acme support</h1>${body}</html>`,
    );
  });
  const { origin, close } = await listenOnLoopback(server);
  return { url: `${origin}/`, close };
}

test('the embed panel builds a URL and an iframe snippet that shows the live session on another origin', async ({
  authed: page,
  api,
}, testInfo) => {
  const created = await api.post('/api/create_workflow_session', { data: { workflow_name: 'e2e embed' } });
  expect(created.status()).toBe(200);
  const { session_id: id } = (await created.json()) as { session_id: string };
  try {
    await page.goto(`/sessions/${id}`);
    const panel = page.getByRole('region', { name: 'Embed' });
    await expect(panel).toBeVisible({ timeout: 20_000 });
    // The white-label URLs are on show, each with its copy button.
    await expect(panel.getByRole('button', { name: 'Copy vnc_url' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Copy livestream_url' })).toBeVisible();

    // View only by default, with the watch-only token (not the vnc_url's control token).
    const urlBox = panel.getByTestId('embed-url');
    await expect(urlBox).toContainText(`/s/${id}/vnc?token=`);
    await expect(urlBox).toContainText('view_only=1');
    // This tab did not launch the session: the page shows fresh URLs of its own (POST /views).
    const vncUrl = (await panel.getByTestId('embed-vnc_url').textContent())!.trim();
    expect(vncUrl).toContain(`/s/${id}/vnc?token=`);
    const controlToken = new URL(vncUrl).searchParams.get('token')!;
    expect(await urlBox.textContent()).not.toContain(controlToken);

    // Each option is a control that rebuilds the URL.
    await panel.getByLabel('Scale').selectOption('none');
    await expect(urlBox).toContainText('scale=none');
    await panel.getByLabel('Background colour', { exact: true }).check();
    await expect(urlBox).toContainText('background=%23202124');
    await panel.getByLabel('View only', { exact: false }).uncheck();
    await expect(urlBox).toContainText(`token=${encodeURIComponent(controlToken)}`);
    await expect(urlBox).not.toContainText('view_only');
    await panel.getByLabel('View only', { exact: false }).check();

    // The preview is that same page, live (opened on request: it is a second viewer).
    await panel.getByText('Preview', { exact: true }).click();
    const preview = page.frameLocator('iframe.embed-preview');
    await expect(preview.locator('.bd-viewer[data-state="connected"] canvas')).toBeVisible({ timeout: 20_000 });

    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-embed-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-embed-390');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The livestream takes only a background: the noVNC-only controls go.
    await panel.getByRole('radio', { name: /Livestream/ }).check();
    await expect(urlBox).toContainText(`/s/${id}/live?token=`);
    await expect(panel.getByLabel('Scale')).toHaveCount(0);
    await panel.getByRole('radio', { name: /Interactive viewer/ }).check();

    // Paint the session's page through its connect_url, so the embed has something to show.
    const connectUrl = (await page.getByTestId('connect-url').textContent())!.trim();
    const remote = await chromium.connectOverCDP(connectUrl);
    try {
      const tab = remote.contexts()[0]!.pages()[0]!;
      await tab.goto(
        'data:text/html,<title>blue</title><style>html,body{margin:0;height:100%;background:rgb(0,128,255)}</style>',
      );
    } finally {
      await remote.close();
    }

    // Pasted into a page on another origin, the snippet shows the live browser there.
    const snippet = (await panel.getByTestId('embed-snippet').textContent())!;
    expect(snippet).toMatch(/^<iframe[\s\S]*<\/iframe>$/);
    const site = await customerSite(snippet);
    try {
      const customer = await page.context().newPage();
      await customer.goto(site.url);
      expect(new URL(customer.url()).origin).not.toBe(new URL(page.url()).origin);
      const embedded = customer.frameLocator('iframe');
      await expect(embedded.locator('.bd-viewer[data-state="connected"] canvas')).toBeVisible({ timeout: 20_000 });
      const frame = customer.frames().find((f) => f.url().includes(`/s/${id}/vnc`))!;
      await expect
        .poll(
          () =>
            frame
              .locator('.bd-viewer canvas')
              .first()
              .evaluate((c: HTMLCanvasElement) => {
                const [r, g, b] = c
                  .getContext('2d')!
                  .getImageData(Math.floor(c.width / 2), Math.floor(c.height / 2), 1, 1).data;
                return Math.abs(r! - 0) + Math.abs(g! - 128) + Math.abs(b! - 255) < 30;
              }),
          { message: "the customer's page shows the session's blue page" },
        )
        .toBe(true);
      // No favicon request from the embed page: it names an empty icon of its own.
      await expect(embedded.locator('link[rel="icon"][href="data:,"]')).toHaveCount(1);
      await keepScreenshot(customer, testInfo, 'embed-on-customer-site');
      await customer.close();
    } finally {
      await site.close();
    }
  } finally {
    await api.delete(`/api/sessions/${id}`);
  }
});

test('an embed page opened on its own asks for no favicon', async ({ page, api }) => {
  const created = await api.post('/api/create_workflow_session', { data: { workflow_name: 'e2e embed favicon' } });
  const { session_id: id, livestream_url: liveUrl } = (await created.json()) as {
    session_id: string;
    livestream_url: string;
  };
  try {
    const favicons: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/favicon.ico') favicons.push(r.url());
    });
    await page.goto(liveUrl);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', 'data:,');
    await expect(page.locator('.bd-viewer')).toBeVisible();
    expect(favicons).toEqual([]);
  } finally {
    await api.delete(`/api/sessions/${id}`);
  }
});
