import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The remote screen's box on a live page (a session, a run, the agent), measured from the page's
 * top once noVNC has drawn its first frame and sized the canvas.
 */
export async function liveScreenBox(page: Page): Promise<Box> {
  const canvas = page.locator('.bd-viewer[data-state="connected"] canvas').first();
  await expect(canvas).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(100);
  const box = (await canvas.boundingBox())!;
  console.log('live screen', page.url(), page.viewportSize(), JSON.stringify(box));
  return box;
}

/**
 * The live browser first at 1280×800: the screen starts within the top 200 px, is at least 1000 px
 * wide and shows whole above the fold (issue 38, items 4 and 6).
 */
export async function expectScreenFirstWide(page: Page): Promise<Box> {
  const box = await liveScreenBox(page);
  expect(box.y, 'the screen starts within the top 200 px').toBeLessThanOrEqual(200);
  expect(box.width, 'the screen is at least 1000 px wide').toBeGreaterThanOrEqual(1000);
  expect(box.y + box.height, 'the whole screen is above the fold').toBeLessThanOrEqual(800);
  return box;
}

/**
 * On a phone: the header is one row, the screen follows the page's title with no other block
 * between them, and nothing scrolls sideways.
 */
export async function expectScreenUnderTitle(page: Page): Promise<Box> {
  const box = await liveScreenBox(page);
  const header = (await page.locator('header.topbar').boundingBox())!;
  expect(header.height, 'the header is one row').toBeLessThanOrEqual(64);
  const title = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
  expect(box.y, 'the screen is under the title').toBeGreaterThan(title.y + title.height - 1);
  expect(box.y - (title.y + title.height), 'nothing between the title and the screen').toBeLessThanOrEqual(24);
  expect(box.width, 'the screen takes the phone’s width').toBeGreaterThanOrEqual(340);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  return box;
}
