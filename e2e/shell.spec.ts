import { expect, test } from '@playwright/test';

test('the dashboard shell loads', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Browserdesk');
});
