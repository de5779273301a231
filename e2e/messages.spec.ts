import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// Messages in words, at the field they concern, not the wire's field names.
test("the launcher's refusals are sentences at their fields", async ({ authed: page }, testInfo) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/sessions');
    // Refusals open Advanced themselves; it is opened here to fill its fields.
    await page.getByRole('button', { name: 'Advanced' }).click();
    await page.getByLabel('Session data (JSON)').fill('{"cookies": ');
    const timeout = page.getByLabel('Timeout (seconds)');
    await timeout.fill('10');
    // The name may be left empty (a default is sent), but not be too long.
    const name = page.getByLabel('Workflow name');
    await name.fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Launch browser' }).click();
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    // Each message is the field's own description, so a screen reader reads it with the field.
    await expect(name).toHaveAccessibleDescription(/Workflow name must be at most 200 characters\./);
    await expect(page.getByLabel('Session data (JSON)')).toHaveAccessibleDescription(/Session data must be valid JSON/);
    await expect(timeout).toHaveAccessibleDescription(/Timeout must be at least 30 seconds\./);
    await expect(page.getByText(/workflow_name|session_data must|must be a string/)).toHaveCount(0);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `launcher-messages-${width}`);
  }
});

test('a session address with no session id says there is no such session, in words', async ({
  authed: page,
}, testInfo) => {
  await page.goto('/sessions/not-a-session');
  await expect(page.getByRole('alert')).toContainText('No such session.');
  await expect(page.getByText(/Invalid request|Invalid UUID/)).toHaveCount(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'session-unknown');
});
