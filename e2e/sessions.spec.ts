import { chromium } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

/** The colour of the noVNC canvas at a point (fractions of its size). */
async function canvasPixel(page: import('@playwright/test').Page, fx: number, fy: number): Promise<number[]> {
  return page
    .locator('.bd-viewer canvas')
    .first()
    .evaluate(
      (c: HTMLCanvasElement, [x = 0.5, y = 0.5]) =>
        Array.from(
          c
            .getContext('2d')!
            .getImageData(Math.floor(c.width * x), Math.floor(c.height * y), 1, 1)
            .data.slice(0, 3),
        ),
      [fx, fy],
    );
}

test('launch a session, see its page in the noVNC canvas, then end it', async ({ authed: page }, testInfo) => {
  await page.goto('/sessions');
  await expect(page.getByText('No sessions yet').or(page.getByRole('table'))).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'sessions');

  // Advanced's fields are sent as typed (the defaults alone: e2e/launcher.spec.ts).
  await page.getByRole('button', { name: 'Advanced' }).click();
  await page.getByLabel('Workflow name').fill('e2e session');
  await expect(page.getByLabel('Timeout (seconds)')).toHaveValue('1200');
  await page.getByRole('button', { name: 'Launch browser' }).click();
  // The page moves on once the session's browser has started.
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const sessionId = page.url().split('/').pop()!;
  await expect(page.locator('.badge.live')).toBeVisible();
  await expect(page.getByTestId('time-left')).toContainText('min');

  // Paint the session's page one colour through the connect_url the page shows, as a user's script would.
  const connectUrl = (await page.getByTestId('connect-url').textContent())!.trim();
  expect(connectUrl).toMatch(/^ws:\/\/.+\/cdp\?token=/);
  const remote = await chromium.connectOverCDP(connectUrl);
  try {
    const context = remote.contexts()[0]!;
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto('data:text/html,<style>html,body{margin:0;height:100%;background:rgb(0,128,255)}</style>');
    await tab.bringToFront();
  } finally {
    await remote.close();
  }
  await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible();
  await expect
    .poll(
      async () => {
        const [r, g, b] = await canvasPixel(page, 0.5, 0.7);
        return Math.abs(r! - 0) + Math.abs(g! - 128) + Math.abs(b! - 255) < 30;
      },
      { message: 'the noVNC canvas shows the blue page' },
    )
    .toBe(true);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session');

  // The list shows it live, then End session ends it.
  await page.getByRole('button', { name: 'End session' }).click();
  // It asks first, focused on the safe choice.
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('This session has ended (stopped)')).toBeVisible();
  await page.goto('/sessions');
  await expect(page.locator(`tr[data-session-id="${sessionId}"] .badge`)).toHaveText('ended');
  await expect(page.locator(`tr[data-session-id="${sessionId}"] td[data-label="End reason"]`)).toHaveText('stopped');
});

test('a 422 from the server is shown at the field it names', async ({ authed: page }) => {
  await page.goto('/sessions');
  await page.getByRole('button', { name: 'Advanced' }).click();
  await page.getByLabel('Workflow name').fill('e2e refused webhook');
  // Well-formed, so the launcher lets it through; only the server finds that .invalid never resolves.
  await page.getByLabel('Webhook URL').fill('https://hooks.example.invalid/browserdesk');
  await page.getByRole('button', { name: 'Launch browser' }).click();
  const webhook = page.getByLabel('Webhook URL');
  await expect(webhook).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#f-webhook_url-error')).toContainText('does not resolve');
  await expect(page).toHaveURL(/\/sessions$/);
});

test('the launcher offers proxies only when the server has one configured', async ({ authed: page, api }) => {
  const info = (await (await api.get('/api/server_info')).json()) as { proxy_configured: boolean };
  expect(info.proxy_configured).toBe(false); // the e2e server sets no PROXY_URL
  // The launcher asks /server_info; once it has answered, the box stays away.
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/server_info'));
  await page.goto('/sessions');
  await answered;
  await page.getByRole('button', { name: 'Advanced' }).click();
  await expect(page.getByLabel('Workflow name')).toBeVisible();
  await expect(page.getByLabel('Use proxies')).toHaveCount(0);
});

test('the launcher checks session data JSON as you type; metadata is any text', async ({ authed: page }) => {
  await page.goto('/sessions');
  await page.getByRole('button', { name: 'Advanced' }).click();
  const data = page.getByLabel('Session data (JSON)');
  await data.fill('{"cookies": ');
  await expect(page.getByText(/Session data must be valid JSON/)).toBeVisible();
  await expect(data).toHaveAttribute('aria-invalid', 'true');
  await data.fill('{"cookies": []}');
  await expect(page.getByText(/Session data must be valid JSON/)).toHaveCount(0);
  const metadata = page.getByLabel('Metadata', { exact: true });
  await metadata.fill('order 42');
  await expect(metadata).toHaveAttribute('aria-invalid', 'false');
});

test('a session created through the API opens its live view on its page, from any tab', async ({
  authed: page,
  api,
}) => {
  const created = await api.post('/api/create_workflow_session', { data: { workflow_name: 'e2e from the API' } });
  expect(created.status()).toBe(200);
  const { session_id: id } = (await created.json()) as { session_id: string };
  await page.goto(`/sessions/${id}`);
  await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('connect-url')).toContainText(`/s/${id}/cdp?token=`);
  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('This session has ended (stopped)')).toBeVisible();
});

test('the sessions list shows workflow, start and end reason, filters by state, and leaves made-up workflows out of Workflows', async ({
  authed: page,
  api,
}, testInfo) => {
  const start = async (name: string) => {
    const res = await api.post('/api/create_workflow_session', { data: { workflow_name: name } });
    expect(res.status()).toBe(200);
    return (await res.json()) as { session_id: string; workflow_id: string };
  };
  const stay = await start('e2e filter: still live');
  const gone = await start(`e2e filter: ended ${'with a long name '.repeat(8)}`);
  expect((await api.delete(`/api/sessions/${gone.session_id}`)).status()).toBe(200);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/sessions');
    const liveRow = page.locator(`tr[data-session-id="${stay.session_id}"]`);
    const endedRow = page.locator(`tr[data-session-id="${gone.session_id}"]`);
    await expect(liveRow).toContainText('e2e filter: still live');
    await expect(liveRow.getByTestId('time-left')).toBeVisible();
    await expect(endedRow.locator('td[data-label="State"] .badge')).toHaveText('ended');
    await expect(endedRow.locator('td[data-label="End reason"]')).toHaveText('stopped');
    await expect(endedRow.locator('time')).toHaveCount(2); // started and ended
    // The long name is cut inside the list's card (whole on hover), not pushing the card sideways.
    const name = endedRow.locator('td[data-label="Workflow"] .truncate');
    await expect(name).toHaveAttribute('title', /with a long name/);
    const box = page.locator('section[aria-labelledby="sessions-title"]');
    expect(await name.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(
      (await box.boundingBox())!.x + (await box.boundingBox())!.width,
    );
    expect(await box.locator('.table-wrap').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    await page.getByLabel('Show').selectOption({ label: 'Live' });
    await expect(page).toHaveURL(/\/sessions\?state=live$/);
    await expect(endedRow).toHaveCount(0);
    await expect(liveRow).toBeVisible();
    await page.getByLabel('Show').selectOption({ label: 'Ended' });
    await expect(liveRow).toHaveCount(0);
    await expect(endedRow).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sessions-ended-1280');

    // A reload keeps the filter.
    await page.reload();
    await expect(page.getByLabel('Show')).toHaveValue('ended');
    await page.getByLabel('Show').selectOption({ label: 'All states' });
    await expect(liveRow).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    // Each cell is a labelled line on a phone: the start time is still shown, inside the screen.
    const started = liveRow.locator('td[data-label="Started"] time');
    await expect(started).toBeVisible();
    expect(await started.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(390);
    expect(
      await liveRow.locator('td[data-label="Started"]').evaluate((td) => getComputedStyle(td, '::before').content),
    ).toBe('"Started"');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'sessions-390');

    // Neither session's made-up workflow is in the Workflows list.
    await page.goto('/workflows');
    await expect(page.getByRole('heading', { level: 1, name: 'Workflows' })).toBeVisible();
    await expect(page.getByText('e2e filter:')).toHaveCount(0);
  } finally {
    await api.delete(`/api/sessions/${stay.session_id}`);
  }
});
