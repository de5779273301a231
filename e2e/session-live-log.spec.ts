import { chromium } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';

// A running session's page shows its log as things happen (not only after it ends), with the
// inspector's filter; after a reload the session still names its workflow.
const PAGE = `<!doctype html><title>Chatty</title><h1>Chatty</h1><script>console.log('hello from the page')</script>`;

test('a live session streams its console, navigations and clients into its page, filtered like the inspector', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml(PAGE);
  const name = `e2e live log ${Date.now()}`;
  const created = await api.post('/api/create_workflow_session', { data: { workflow_name: name } });
  expect(created.status()).toBe(200);
  const session = (await created.json()) as { session_id: string; connect_url: string };
  try {
    await page.goto(`/sessions/${session.session_id}`);
    const log = page.getByRole('list', { name: 'Live log' });
    await expect(log).toContainText('Session started');
    await expect(page.getByText(`Workflow: ${name}`)).toBeVisible();

    // A client drives the session while the page is open: what it does appears without a reload.
    const browser = await chromium.connectOverCDP(session.connect_url);
    try {
      const remote = browser.contexts()[0]!.pages()[0]!;
      await remote.goto(`${site.origin}/chatty`);
      await expect(log).toContainText('A CDP client joined');
      // One VNC connection for the page: the live view's (the embed preview opens only on request).
      await expect(log.getByText('A live-view viewer (VNC) joined')).toHaveCount(1);
      await expect(log).toContainText(`Went to ${site.origin}/chatty`);
      await expect(log).toContainText('console.log: hello from the page');
      await remote.evaluate(() => console.warn('second line, later'));
      await expect(log).toContainText('console.warn: second line, later');

      await page.getByLabel('Show', { exact: true }).last().selectOption({ label: 'Console' });
      await expect(log.getByRole('listitem')).toHaveCount(2);
      await expectAccessible(page);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await log.scrollIntoViewIfNeeded();
        await keepScreenshot(page, testInfo, `session-live-log-${width}`);
      }
    } finally {
      await browser.close();
    }
    // A reload keeps the workflow's name (it came from this tab's memory before).
    await page.reload();
    await expect(page.getByText(`Workflow: ${name}`)).toBeVisible();
  } finally {
    await api.delete(`/api/sessions/${session.session_id}`);
    await site.close();
  }
});
