import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// After an upgrade an open dashboard asks for chunks the server no longer has: the page reloads
// into the new version instead of showing the import error; a chunk that stays broken still shows it.
test('a page whose chunk fails to load once reloads and shows the page', async ({ authed: page }) => {
  let failed = 0;
  await page.route(/\/assets\/RunsPage-[^/]+\.js$/, async (route) => {
    if (failed++ === 0) return route.abort('connectionrefused');
    return route.continue();
  });
  await page.goto('/writer');
  await page.getByRole('navigation').getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await expect(page.getByText('This page could not be shown')).toHaveCount(0);
  expect(failed).toBeGreaterThanOrEqual(2);
});

test('a chunk that stays broken shows the error after one reload, not a reload loop', async ({ authed: page }) => {
  let asked = 0;
  let reloads = 0;
  await page.route(/\/assets\/RunsPage-[^/]+\.js$/, (route) => {
    asked++;
    return route.abort('connectionrefused');
  });
  page.on('request', (r) => {
    if (r.resourceType() === 'document' && new URL(r.url()).pathname === '/runs') reloads++;
  });
  await page.goto('/writer');
  await page.getByRole('navigation').getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('heading', { name: 'This page could not be shown' })).toBeVisible();
  await page.waitForTimeout(1000);
  // Opened from the nav, then one reload of /runs, and no more. Each load asks for the chunk once or
  // twice: a page with a stylesheet of its own (RunsPage's table) preloads the chunk while its CSS loads, then imports it.
  expect(reloads).toBe(1);
  expect(asked).toBeGreaterThanOrEqual(2);
  expect(asked).toBeLessThanOrEqual(4);
});

test('Delete in the workflows list looks dangerous', async ({ authed: page, api }, testInfo) => {
  const name = `e2e delete style ${Date.now()}`;
  const created = await api.post('/api/workflows', { data: { name, flow: { title: 't', steps: [] }, variables: [] } });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  try {
    await page.goto('/workflows');
    const del = page.getByRole('button', { name: `Delete ${name}` });
    const run = page.getByRole('link', { name: `Run ${name}` });
    await expect(del).toBeVisible();
    const colour = (l: typeof del) => l.evaluate((el) => getComputedStyle(el).color);
    expect(await colour(del)).toBe('rgb(180, 35, 24)');
    expect(await colour(del)).not.toBe(await colour(run));
    await expectAccessible(page);
    await del.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, 'workflows-delete');
  } finally {
    await api.delete(`/api/workflows/${id}`);
  }
});
