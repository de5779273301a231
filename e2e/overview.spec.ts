import type { APIRequestContext } from '@playwright/test';
import {
  createWorkflow,
  expect,
  expectAccessible,
  runUntilSessionEnds,
  shotsCopiedTo,
  test,
} from './support/fixtures.ts';

/** Run a one-step workflow to its end through the API; `fail` clicks what is not there. */
async function runToEnd(api: APIRequestContext, name: string, fail: boolean): Promise<void> {
  const steps = fail
    ? [
        { type: 'navigate', url: 'about:blank' },
        { type: 'click', selectors: [['#missing']], offsetX: 1, offsetY: 1, timeout: 1000 },
      ]
    : [{ type: 'navigate', url: 'about:blank' }];
  await runUntilSessionEnds(api, await createWorkflow(api, name, { title: name, steps }));
}

const shot = shotsCopiedTo((name) => `/tmp/overview-${name}.png`);

test('the overview is the home: live sessions, capacity, runs today and the last 24 hours; 1280 and 390 px, light and dark', async ({
  authed: page,
  api,
}, testInfo) => {
  test.setTimeout(150_000);
  await runToEnd(api, `e2e overview ok ${Date.now()}`, false);
  await runToEnd(api, `e2e overview failing ${Date.now()}`, true);
  const facts = (await (await api.get('/api/overview')).json()) as {
    runs: { succeeded: number; failed: number };
    capacity: { max_sessions: number };
  };
  expect(facts.runs.succeeded).toBeGreaterThanOrEqual(1);
  expect(facts.runs.failed).toBeGreaterThanOrEqual(1);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page).toHaveTitle('Overview · Browserdesk');
  await expect(page.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  const capacity = page.getByRole('region', { name: 'Capacity' });
  await expect(capacity).toContainText(`of ${facts.capacity.max_sessions}`);
  await expect(capacity).toContainText(/Warm pool/);
  const runs = page.getByRole('region', { name: 'Runs today' });
  await expect(runs.getByRole('link', { name: /Succeeded/ })).toHaveAttribute('href', '/runs?status=succeeded');
  await expect(runs.getByRole('link', { name: /Failed/ })).toContainText(String(facts.runs.failed));
  const activity = page.getByRole('region', { name: 'Last 24 hours' });
  await expect(
    activity.getByRole('img', { name: /Last 24 hours: \d+ sessions? started, \d+ runs? succeeded, \d+ runs? failed/ }),
  ).toBeVisible();
  await expect(activity.locator('canvas').first()).toBeVisible();
  await activity.getByText('Show the hours as a table').click();
  await expect(activity.getByRole('table')).toBeVisible();
  await expect(activity.getByRole('row')).toHaveCount(25);
  await expectAccessible(page);
  await shot(page, testInfo, '1280');

  // A session started elsewhere shows without a reload (the event stream), and goes when it ends.
  // The other worker's specs start and end sessions on the same server meanwhile, so the page is
  // held to the server's own count at each moment, not to a count taken before.
  const live = page.getByRole('region', { name: 'Live sessions' });
  const shownMatchesServer = async () => {
    const { sessions } = (await (await api.get('/api/overview')).json()) as { sessions: { live: number } };
    return Number(await live.locator('.overview-number').textContent()) === sessions.live;
  };
  const made = await api.post('/api/create_workflow_session', {
    data: { workflow_name: `e2e overview live ${Date.now()}` },
  });
  const sessionId = ((await made.json()) as { session_id: string }).session_id;
  await expect.poll(shownMatchesServer, { timeout: 30_000 }).toBe(true);
  await api.post('/api/close_workflow_session', { data: { session_id: sessionId } });
  await expect.poll(shownMatchesServer, { timeout: 30_000 }).toBe(true);

  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(activity.locator('canvas').first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, testInfo, '1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(activity.locator('canvas').first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, testInfo, '390');

  // The Writer keeps its own address; the brand goes home.
  await page.goto('/writer');
  await expect(page.getByRole('heading', { level: 1, name: 'Writer' })).toBeVisible();
  await page.getByRole('link', { name: 'Browserdesk' }).click();
  await expect(page).toHaveURL(/\/$/);
});
