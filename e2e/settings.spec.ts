import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

test('a 401 leads to Settings, and a checked key goes back to the page it came from', async ({ page }, testInfo) => {
  await page.goto('/workflows');
  await expect(page).toHaveURL(/\/settings\?from=%2Fworkflows/);
  await expect(page.getByRole('alert').filter({ hasText: 'valid API key' })).toBeVisible();
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'settings');

  await page.getByLabel('API key', { exact: true }).fill('wrong_key_0123456789abcdef');
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page.getByText('The server refused this API key (401).')).toBeVisible();
  await expect(page).toHaveURL(/\/settings/);

  await page.getByLabel('API key', { exact: true }).fill('e2e_key_0123456789abcdef');
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page).toHaveURL(/\/workflows$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Workflows' })).toBeVisible();
});

test('the webhook signing secret: copied unseen, revealed, rotated after a confirmation; server facts; 1280 and 390 px', async ({
  authed: page,
  api,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const secretNow = async () => ((await (await api.get('/api/webhooks/secret')).json()) as { secret: string }).secret;
  const before = await secretNow();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/settings');
  await expect(page.getByText('DATA_DIR/api-key')).toBeVisible();
  const facts = page.getByRole('region', { name: 'This server' });
  await expect(facts.getByText('Version')).toBeVisible();
  await expect(facts.getByText('Not configured: sessions go out directly')).toBeVisible();
  const value = page.locator('#webhook-secret-value');
  await expect(value).not.toContainText(before);

  await page.getByRole('button', { name: 'Copy secret' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(before);
  await expect(value).not.toContainText(before);

  await page.getByRole('button', { name: 'Reveal secret' }).click();
  await expect(value).toHaveText(before);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'settings-1280');

  await page.getByRole('button', { name: 'Rotate secret…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the webhook signing secret?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect(await secretNow()).toBe(before);

  await page.getByRole('button', { name: 'Rotate secret…' }).click();
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByText('Rotated. Webhooks are now signed with the new secret')).toBeVisible();
  const after = await secretNow();
  expect(after).not.toBe(before);
  await expect(value).toHaveText(after);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'settings-390');
});
