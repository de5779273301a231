import { expect, expectAccessible, shotsCopiedTo, test } from './support/fixtures.ts';

const shot = shotsCopiedTo((name) => `/tmp/profiles-${name}.png`);

const storageState = {
  cookies: [
    {
      name: 'sid',
      value: 'e2e-login',
      domain: 'shop.example',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    },
  ],
  origins: [{ origin: 'https://shop.example', localStorage: [{ name: 'cart', value: '3' }] }],
};

test('a profile made from a storage state in the UI: listed at version 1, refused deletion while a session uses it, then deleted; 1280 and 390 px', async ({
  authed: page,
  api,
}, testInfo) => {
  const name = `e2e-login-${Date.now()}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/profiles');
  await expect(page.getByRole('heading', { level: 1, name: 'Profiles' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Storage state (optional)').fill(JSON.stringify(storageState));
  await page.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Created the profile ${name}` })).toBeVisible();
  const row = page.locator(`tr[data-profile="${name}"]`);
  await expect(row.locator('td[data-label="Version"]')).toHaveText('1 (1 kept)');
  await expect(row.locator('td[data-label="In use by"]')).toHaveText('No session');
  await expectAccessible(page);
  await shot(page, testInfo, 'list-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, testInfo, 'list-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The launcher offers it, None first.
  await page.goto('/sessions');
  const choice = page.getByLabel('Profile', { exact: true });
  await expect(choice.getByRole('option', { name })).toBeAttached();
  await expect(choice).toHaveValue('');
  await expect(page.getByLabel('Save changes back to the profile')).toBeDisabled();
  await page.locator('.sessions-launch').screenshot({ path: '/tmp/profiles-launcher-1280.png' });
  await page.goto('/profiles');

  // A session started from it holds it: the server refuses the deletion and names the session.
  const started = await api.post('/api/create_workflow_session', {
    data: { workflow_name: 'e2e profile user', profile: { name } },
  });
  expect(started.status()).toBe(200);
  const sessionId = ((await started.json()) as { session_id: string }).session_id;
  await page.reload();
  await expect(row.getByRole('link', { name: `Session ${sessionId.slice(0, 8)}` })).toBeVisible();

  await row.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Profile ${name}` })).toBeVisible();
  await expect(page.getByRole('table', { name: `Versions of ${name}, newest first` })).toContainText('Imported');
  await expectAccessible(page);
  await shot(page, testInfo, 'detail-1280');

  await page.getByRole('button', { name: 'Delete profile…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this profile?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Delete profile' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete profile…' }).click();
  await dialog.getByRole('button', { name: 'Delete profile' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The profile was not deleted.' });
  await expect(refusal).toContainText(`in use by session ${sessionId}`);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, testInfo, 'detail-390');

  expect((await api.delete(`/api/sessions/${sessionId}`)).status()).toBe(200);
  await expect
    .poll(async () => ((await (await api.get(`/api/profiles/${name}`)).json()) as { in_use_by: unknown[] }).in_use_by)
    .toEqual([]);
  await page.getByRole('button', { name: 'Delete profile…' }).click();
  await dialog.getByRole('button', { name: 'Delete profile' }).click();
  await expect(page).toHaveURL(/\/profiles$/);
  await expect(page.locator(`tr[data-profile="${name}"]`)).toHaveCount(0);
  expect((await api.get(`/api/profiles/${name}`)).status()).toBe(404);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, testInfo, 'empty-390');
});
