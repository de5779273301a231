import { expect, expectAccessible, shotsCopiedTo, signIn, test } from './support/fixtures.ts';

const shot = shotsCopiedTo((name) => `/tmp/api-keys-${name}.png`);

test('API keys in Settings: create (shown once, copied), list, revoke after a confirmation; 1280 and 390 px', async ({
  authed: page,
  playwright,
  baseURL,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const name = `e2e laptop ${Date.now()}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'API keys' });
  await expect(section.getByRole('row').filter({ hasText: 'BROWSERDESK_API_KEY' })).toContainText('this dashboard');

  await section.getByLabel('Name').fill(name);
  await section.getByLabel('Name').press('Enter');
  await expect(section.getByText("Copy it now: you won't see it again.")).toBeVisible();
  const key = (await section.getByLabel(`New API key ${name}`).textContent())!;
  expect(key).toMatch(/^bd_/);
  await section.getByRole('button', { name: 'Copy key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  const withNew = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-api-key': key } });
  expect((await withNew.get('/api/server_info')).status()).toBe(200);
  const row = section.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`${key.slice(0, 10)}…`);
  await expect(section.getByLabel('Name')).toHaveAttribute('aria-invalid', 'false');
  await expectAccessible(page);
  await shot(page, testInfo, '1280');
  await section.screenshot({ path: '/tmp/api-keys-1280-section.png' });

  // Once hidden, or after a reload, only its first characters are left.
  await section.getByRole('button', { name: 'Done, hide it' }).click();
  await page.reload();
  await expect(section.getByRole('row').filter({ hasText: name })).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);

  // A second active key of the same name would make "Revoke <name>" ambiguous: refused at the field.
  const taken = (n: string) => `An active key is already named “${n}”: choose another name, or revoke that key first.`;
  await section.getByLabel('Name').fill(name);
  await section.getByLabel('Name').press('Enter');
  await expect(section.getByText(taken(name))).toBeVisible();
  await expect(section.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(section.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  await expectAccessible(page);
  await section.getByLabel('Name').fill('');

  await section.getByRole('button', { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await withNew.get('/api/server_info')).status()).toBe(200);
  await section.getByRole('button', { name: `Revoke ${name}` }).click();
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(section.getByText(/no longer opens the API/)).toBeVisible();
  await expect(section.getByRole('row').filter({ hasText: name })).toContainText('Revoked');
  expect((await withNew.get('/api/server_info')).status()).toBe(401);
  await withNew.dispose();

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, testInfo, '390');
  await section.getByLabel('Name').fill('BROWSERDESK_API_KEY');
  await section.getByLabel('Name').press('Enter');
  await expect(section.getByText(taken('BROWSERDESK_API_KEY'))).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, testInfo, '390-name-taken');
  await section.screenshot({ path: '/tmp/api-keys-390-section.png' });
});

test("revoking the dashboard's own key is warned about and forgets it; clearing the saved key asks first", async ({
  page,
  api,
}, testInfo) => {
  const made = (await (await api.post('/api/keys', { data: { name: `e2e own ${Date.now()}` } })).json()) as {
    key: string;
    name: string;
  };
  await signIn(page, made.key);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'API keys' });
  await expect(section.getByRole('row').filter({ hasText: made.name })).toContainText('this dashboard');
  await section.getByRole('button', { name: `Revoke ${made.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
  await expect(dialog).toContainText('This is the key this dashboard uses');
  await expectAccessible(page);
  await shot(page, testInfo, 'own-key-dialog');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('The key this dashboard used was revoked')).toBeVisible();
  await expect(page.getByLabel('API key', { exact: true })).toHaveValue('');
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('browserdesk.settings')!).apiKey)).toBe('');

  // Save the operator's key again, then clear it: a confirmation first, and the home asks for a key.
  await page.getByLabel('API key', { exact: true }).fill('e2e_key_0123456789abcdef');
  await page.getByRole('button', { name: 'Check and save' }).click();
  await expect(page.getByText('Connected. Settings saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear the saved key' }).click();
  const clear = page.getByRole('dialog', { name: 'Clear the saved API key?' });
  await expect(clear.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await clear.getByRole('button', { name: 'Clear the key' }).click();
  await expect(page.getByText('The saved key is cleared from this browser.')).toBeVisible();
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('link', { name: 'Save an API key in Settings' })).toBeVisible();
  await expectAccessible(page);
});
