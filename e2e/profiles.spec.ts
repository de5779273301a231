import { expect, expectAccessible, serveHtml, shotsCopiedTo, test } from './support/fixtures.ts';

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
  await page.getByRole('button', { name: 'Advanced' }).click();
  const choice = page.getByLabel('Profile', { exact: true });
  await expect(choice.getByRole('option', { name })).toBeAttached();
  await expect(choice).toHaveValue('');
  await expect(page.getByLabel('Save changes back to the profile')).toBeDisabled();
  await page.locator('.launcher').screenshot({ path: '/tmp/profiles-launcher-1280.png' });
  // So do the run form and the agent's start form; saving back is offered once a profile is chosen.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/run', '/agent']) {
    await page.goto(path);
    await page.getByLabel('Profile', { exact: true }).selectOption(name);
    await expect(page.getByLabel('Save changes back to the profile')).toBeEnabled();
    await shot(page, testInfo, `${path.slice(1)}-390`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
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

test('Log in by hand: a live browser from the profile, whose end saves the login as version 2; version 1 restored as 3', async ({
  authed: page,
  api,
}, testInfo) => {
  const name = `e2e-by-hand-${Date.now()}`;
  expect((await api.post('/api/profiles', { data: { name, storage_state: storageState } })).status()).toBe(201);
  // The "login" page: it sets a cookie and a localStorage entry, as a site does once someone logs in.
  const site = await serveHtml(
    "<title>Shop</title><p>Logged in</p><script>document.cookie='sid=ada; max-age=3600; path=/'; localStorage.setItem('user', 'ada')</script>",
  );
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/profiles/${name}`);
    await expect(page.getByText('Version: 1 (1 kept)')).toBeVisible();
    await page.getByLabel('Start URL').fill(`${site.origin}/login`);
    await page.getByRole('button', { name: 'Open a browser to log in' }).click();
    await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const sessionId = page.url().split('/').pop()!;
    await expect(page.getByRole('note')).toContainText(`saved to the profile ${name}`);
    await expect(page.locator('.badge.live')).toBeVisible();
    await shot(page, testInfo, 'log-in-session-1280');

    await page.getByRole('button', { name: 'End session' }).click();
    await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
    await expect(page.getByText('This session has ended')).toBeVisible();
    await expect
      .poll(
        async () => ((await (await api.get(`/api/profiles/${name}`)).json()) as { version: number | null }).version,
        {
          timeout: 30_000,
        },
      )
      .toBe(2);

    // The session's log says the login was saved.
    await expect(page.getByText(new RegExp(`Saved to profile ${name} \\(version 2`)).first()).toBeVisible();
    await page.goto(`/profiles/${name}`);
    const versions = page.getByRole('table', { name: `Versions of ${name}, newest first` });
    await expect(versions.getByRole('row').nth(1)).toContainText(`Saved by session ${sessionId.slice(0, 8)}`);
    await expect(page.getByText('Version: 2 (2 kept)')).toBeVisible();
    await expect(versions.getByRole('row').nth(2)).toContainText('Imported');

    await versions.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore this version?' });
    await expect(dialog).toContainText('is copied as version 3');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(page.getByText('Restored version 1: it is now version 3')).toBeVisible();
    await expect(versions.getByRole('row').nth(1)).toContainText('Restored from version 1');
    await expectAccessible(page);
    await shot(page, testInfo, 'restored-1280');
  } finally {
    await site.close();
  }
});
