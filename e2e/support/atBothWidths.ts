import type { Locator, Page, TestInfo } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot } from './fixtures.ts';

/**
 * The page at 1280 and at 390 px: axe finds no serious violation, the page does not scroll
 * sideways, and a screenshot with `shown` scrolled into view is kept as `${name}-${width}`.
 */
export async function checkAtBothWidths(page: Page, testInfo: TestInfo, name: string, shown: Locator): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1)).toBe(true);
    await shown.scrollIntoViewIfNeeded();
    await keepScreenshot(page, testInfo, `${name}-${width}`);
  }
}
