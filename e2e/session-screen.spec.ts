import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { expectScreenFirstWide, expectScreenUnderTitle } from './support/liveScreen.ts';

const SHOTS = process.env.SESSION_SCREEN_SHOTS;

test('a live session: at 1280×800 the remote screen takes the page from the top 200 px, at least 1000 px wide, without bars; on a phone it sits under the title; the page says who watches', async ({
  authed: page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/sessions');
  await page.getByRole('button', { name: 'Advanced' }).click();
  // Longer than the default name ("Session 2026-11-28 08:57"), which once wrapped the facts row and
  // pushed the screen past 200 px: the name gives way (an ellipsis), the screen does not.
  await page.getByLabel('Workflow name').fill('e2e session screen, whose workflow name is longer than any default');
  await page.getByRole('button', { name: 'Launch browser' }).click();
  // The page moves on once the session's browser has started.
  await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });

  const c = await expectScreenFirstWide(page);
  const f = (await page.locator('.viewer-host .viewer-frame').first().boundingBox())!;
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/session-1280.png` });
  testInfo.annotations.push({ type: 'measured', description: JSON.stringify({ canvas: c, frame: f }) });
  // The canvas fills its box at the remote screen's 16:9 (no bars either way).
  expect(Math.abs(c.width / c.height - 1280 / 720)).toBeLessThan(0.02);
  expect(Math.abs(c.width - f.width)).toBeLessThanOrEqual(4);
  expect(Math.abs(c.height - f.height)).toBeLessThanOrEqual(4);
  // The controls are one bar over the screen: the tabs, scale, view only and the page's End session all above it.
  const live = page.getByRole('region', { name: 'Live browser', exact: true });
  for (const control of [
    live.getByRole('tab', { name: 'Interactive (noVNC)' }),
    live.getByLabel('Scale'),
    live.getByLabel('View only'),
    page.getByRole('button', { name: 'End session' }),
    page.getByRole('button', { name: 'Extend by 10 min' }),
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(c.y);
  }

  // Who watches: at least this page's own viewer.
  await expect(page.getByTestId('session-watchers')).toContainText('Watching: you');
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-1280-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await page.setViewportSize({ width: 390, height: 844 });
  const phone = await expectScreenUnderTitle(page);
  testInfo.annotations.push({ type: 'measured at 390', description: JSON.stringify(phone) });
  await expect(page.getByTestId('session-watchers')).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-390');
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/session-390.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-390-dark');

  await page.getByRole('button', { name: 'End session' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('This session has ended')).toBeVisible();
});
