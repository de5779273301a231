import type { Page } from '@playwright/test';

/**
 * Shows the header's navigation and theme select: on a narrow screen they are folded behind the
 * Menu button (opened here); on a wide one they always show and this does nothing.
 */
export async function showMainMenu(page: Page): Promise<void> {
  // The header first: right after a navigation the page may not have drawn it yet.
  await page.getByRole('link', { name: 'Browserdesk' }).waitFor();
  const menu = page.getByRole('button', { name: 'Menu' });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
}
