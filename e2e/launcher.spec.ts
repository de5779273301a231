import { expect, keepScreenshot, test } from './support/fixtures.ts';
import { expectNoAxeViolations } from './support/axeAll.ts';

// Issue 38, item 12: Launch browser, above the list, starts a browser with the defaults at once and
// opens its live page; everything else folds under Advanced (a disclosure opened by keyboard).
test('Launch browser: above the list at 1280 and 390 px, Advanced by keyboard with the profile select, one press to a live page', async ({
  authed: page,
  api,
}, testInfo) => {
  const profile = `e2e-launcher-${Date.now()}`;
  expect((await api.post('/api/profiles', { data: { name: profile } })).status()).toBe(201);
  let sessionId = '';
  try {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto('/sessions');
      const launch = page.getByRole('button', { name: 'Launch browser' });
      const list = page.getByRole('region', { name: 'Sessions' });
      await expect(list).toBeVisible();
      // The launcher comes first, in the first screenful, with what its defaults start.
      const launchBox = (await launch.boundingBox())!;
      expect(launchBox.y + launchBox.height).toBeLessThanOrEqual((await list.boundingBox())!.y);
      expect(launchBox.y + launchBox.height).toBeLessThanOrEqual(width === 390 ? 844 : 800);
      await expect(launch).toHaveAccessibleDescription('Full browser, blank page, 20 min, no profile');
      const advanced = page.getByRole('button', { name: 'Advanced' });
      await expect(advanced).toHaveAttribute('aria-expanded', 'false');
      await expect(page.getByLabel('Start URL')).toBeHidden();
      await expectNoAxeViolations(page);
      await keepScreenshot(page, testInfo, `launcher-folded-${width}`);

      // Keyboard only: Tab from Launch browser reaches Advanced; Enter opens it, and the fields follow it.
      await launch.focus();
      await page.keyboard.press('Tab');
      await expect(advanced).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(advanced).toHaveAttribute('aria-expanded', 'true');
      const choice = page.getByLabel('Profile', { exact: true });
      await expect(choice).toBeVisible();
      await expect(choice).toHaveValue('');
      await expect(choice.locator('option').first()).toHaveText('None');
      await expect(choice.getByRole('option', { name: profile })).toBeAttached();
      await expect(page.getByLabel('Start URL')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectNoAxeViolations(page);
      await keepScreenshot(page, testInfo, `launcher-advanced-${width}`);
      // Space folds it again.
      await advanced.focus();
      await page.keyboard.press('Space');
      await expect(advanced).toHaveAttribute('aria-expanded', 'false');
      await expect(choice).toBeHidden();
    }

    // One press, no field touched: the session's live page, its browser on screen.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Launch browser' }).click();
    await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    sessionId = page.url().split('/').pop()!;
    await expect(page.locator('.bd-viewer[data-state="connected"] canvas')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/^Workflow: Session \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/)).toBeVisible();
    const session = (await (await api.get(`/api/sessions/${sessionId}`)).json()) as { state: string };
    expect(session.state).toBe('live');
    await keepScreenshot(page, testInfo, 'launched-1280');
  } finally {
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await api.delete(`/api/profiles/${profile}`);
  }
});
