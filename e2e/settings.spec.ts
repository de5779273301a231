import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

test('a 401 leads to Settings, and a checked key goes back to the page it came from', async ({ page }, testInfo) => {
  await page.goto('/workflows');
  await expect(page).toHaveURL(/\/settings\?from=%2Fworkflows/);
  await expect(page.getByRole('alert').filter({ hasText: 'valid API key' })).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'settings');

  await page.getByLabel('API key').fill('wrong_key_0123456789abcdef');
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page.getByText('The server refused this API key (401).')).toBeVisible();
  await expect(page).toHaveURL(/\/settings/);

  await page.getByLabel('API key').fill('e2e_key_0123456789abcdef');
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Workflows' })).toBeVisible();
});
