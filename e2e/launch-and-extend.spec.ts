import http from 'node:http';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';

// Issue 26, item 7: a session launches with no name (named by when it starts) on a start URL with
// a user agent of its own, and near its time limit its page warns calmly and extends it by 10
// minutes (PATCH /api/sessions/{id}).
test('launch with no name, a start URL and a user agent, then a warning near the time limit and Extend', async ({
  authed: page,
  api,
}, testInfo) => {
  const seen: { url: string; ua: string }[] = [];
  const site = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', ua: req.headers['user-agent'] ?? '' });
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Start</title><h1>Start page</h1>');
  });
  const { origin, close } = await listenOnLoopback(site);
  // The page's clock, so "near the end" comes without waiting 18 minutes; the server's is real.
  await page.clock.install({ time: new Date() });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/sessions');
  await page.getByRole('button', { name: 'Advanced' }).click();
  const name = page.getByLabel('Workflow name');
  await expect(name).toHaveAttribute('placeholder', /^Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await expect(name).toHaveAccessibleDescription(/Optional\./);
  await page.getByLabel('Start URL').fill(`${origin}/start`);
  await page.getByLabel('User agent').fill('BrowserdeskE2E/1.0');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
    await page.getByLabel('Start URL').scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, `launcher-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('button', { name: 'Launch browser' }).click();
  await page.waitForURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const id = page.url().split('/').pop()!;
  try {
    await expect(page.getByText(/^Workflow: Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)).toBeVisible();
    // The browser opened the start URL with the user agent, before the page was handed out.
    expect(seen.find((r) => r.url === '/start')?.ua).toBe('BrowserdeskE2E/1.0');
    // Far from the end: the time left and a quiet Extend, no warning.
    await expect(page.getByTestId('time-left')).toContainText(/(19|20) min/);
    await expect(page.getByRole('button', { name: 'Extend by 10 min' })).toHaveCount(1);
    await expect(page.getByTestId('time-warning')).toHaveCount(0);

    // 18.5 minutes on: under 2 minutes left.
    await page.clock.fastForward('18:30');
    const warning = page.getByTestId('time-warning');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText('Less than 2 minutes left: this session ends at');
    await expect(page.getByRole('button', { name: 'Extend by 10 min' })).toHaveCount(1);
    await expectAccessible(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await warning.scrollIntoViewIfNeeded();
      await keepScreenshot(page, testInfo, `session-time-warning-${width}`);
      // No sideways scroll at either width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1)).toBe(true);
    }

    await warning.getByRole('button', { name: 'Extend by 10 min' }).click();
    await expect(warning).toHaveCount(0);
    await expect(page.getByTestId('time-left')).toContainText(/11 min/);
    const session = (await (await api.get(`/api/sessions/${id}`)).json()) as { timeout: number; state: string };
    expect(session).toMatchObject({ timeout: 1800, state: 'live' });
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-extended-1280');
  } finally {
    await api.delete(`/api/sessions/${id}`);
    await close();
  }
});
