import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// A server with no model: the Writer says so once, up front, and Write is off (it used to
// answer each Write with a 503 notice).
test('the Writer says once that no model is configured and disables Write', async ({ authed: page }, testInfo) => {
  await page.route('**/api/server_info', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...((await res.json()) as object), writer_configured: false } });
  });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/writer');
    await expect(page.getByText('No model is configured, so Write is off.')).toBeVisible();
    await page.getByLabel('Prompt').fill('A short poem');
    await expect(page.getByRole('button', { name: 'Write', exact: true })).toBeDisabled();
    await expect(page.getByText(/MODEL_PROVIDER/)).toHaveCount(1);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, `writer-no-model-${width}`);
  }
});
