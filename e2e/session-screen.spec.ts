import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

const SHOTS = process.env.SESSION_SCREEN_SHOTS;

test('a live session at 1280×800: the remote screen fills its box without bars, above the fold; the page says who watches', async ({
  authed: page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/sessions');
  await page.getByLabel('Workflow name').fill('e2e session screen');
  await page.getByRole('button', { name: 'Launch session' }).click();
  // The page moves on once the session's browser has started.
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
  await page.evaluate(() => window.scrollTo(0, 0));

  const canvas = page.locator('.bd-viewer canvas').first();
  const frame = page.locator('.viewer-host .viewer-frame').first();
  // noVNC sizes the canvas once the first frame is in.
  await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(100);
  const c = (await canvas.boundingBox())!;
  const f = (await frame.boundingBox())!;
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/session-1280.png` });
  testInfo.annotations.push({ type: 'measured', description: JSON.stringify({ canvas: c, frame: f }) });
  console.log('measured', JSON.stringify({ canvas: c, frame: f }));
  // Above the fold, and the canvas fills its box at the remote screen's 16:9 (no bars either way).
  expect(c.y + c.height).toBeLessThanOrEqual(800);
  expect(Math.abs(c.width / c.height - 1280 / 720)).toBeLessThan(0.02);
  expect(Math.abs(c.width - f.width)).toBeLessThanOrEqual(4);
  expect(Math.abs(c.height - f.height)).toBeLessThanOrEqual(4);

  // Who watches: at least this page's own viewer.
  await expect(page.getByTestId('session-watchers')).toContainText('Watching: you');
  console.log('watchers', await page.getByTestId('session-watchers').textContent());
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-1280');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('session-watchers')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-390');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/session-390.png`, fullPage: true });

  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('This session has ended')).toBeVisible();
});
