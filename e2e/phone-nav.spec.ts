import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// Issue 38, item 4: on a phone the header is one row (the brand and a Menu button); the menu opens
// and closes from the keyboard, and Escape gives the focus back to its button.

test('on a phone the navigation is one row with a Menu that works by keyboard', async ({ authed: page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/sessions');
  const header = page.locator('header.topbar');
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  // One row: the brand and the button side by side, the header no taller than one row.
  const brand = (await page.getByRole('link', { name: 'Browserdesk' }).boundingBox())!;
  const button = (await menu.boundingBox())!;
  expect(Math.abs(brand.y + brand.height / 2 - (button.y + button.height / 2))).toBeLessThanOrEqual(4);
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);

  // Keyboard only: Tab reaches the button (skip link, brand, Menu), Enter opens it.
  await page.locator('body').focus();
  for (let i = 0; i < 5 && !(await menu.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(menu).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sessions' })).toHaveClass(/active/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'menu-open-390');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'menu-open-390-dark');

  // The next Tab goes into the menu; Escape closes it and puts the focus back on the button.
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();

  // Space opens it again; a link followed from the keyboard goes there and folds the menu away.
  await page.keyboard.press('Space');
  await expect(nav).toBeVisible();
  const runs = nav.getByRole('link', { name: 'Runs' });
  for (let i = 0; i < 12 && !(await runs.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(runs).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/runs$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();

  // A press outside the header closes it too.
  await menu.click();
  await expect(nav).toBeVisible();
  await page.getByRole('heading', { level: 1 }).click();
  await expect(nav).toBeHidden();
});

test('at 1280 px the navigation is the header’s one row and there is no Menu button', async ({ authed: page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/sessions');
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav).toBeVisible();
  const first = (await nav.getByRole('link', { name: 'Overview' }).boundingBox())!;
  const last = (await nav.getByRole('link', { name: 'Settings' }).boundingBox())!;
  expect(Math.abs(first.y - last.y)).toBeLessThanOrEqual(2);
  expect((await page.locator('header.topbar').boundingBox())!.height).toBeLessThanOrEqual(64);
  await expect(page.getByLabel('Theme')).toBeVisible();
});
