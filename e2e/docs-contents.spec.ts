import { expect, keepScreenshot, test } from './support/fixtures.ts';
import { expectNoAxeViolations } from './support/axeAll.ts';

// Issue 38, item 13: /docs showed "Loading the reference…" for 5 s (Scalar's chunks, then its
// reading of the document, block the page for seconds). The calls' contents are painted from the
// document first; Scalar's reference replaces them once drawn. Its entry chunk is held here until
// the contents have been checked, so the test sees that state on a fast host as on a slow one.
test('/docs paints the calls first, then the full reference; no axe violation of any impact, at 1280 and 390 px', async ({
  authed: page,
}, testInfo) => {
  test.slow(); // Scalar's page is long and heavy (axe alone takes seconds on a busy machine)
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/ApiReference-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/docs');
    const contents = page.getByRole('navigation', { name: 'API calls' });
    const runWorkflow = contents.getByRole('link', { name: /^POST \/run_workflow\b/ });
    await expect(runWorkflow).toBeVisible();
    await expect(runWorkflow).toHaveAttribute('href', '#tag/workflows/POST/run_workflow');
    await expect(contents.getByRole('heading', { name: 'sessions' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Loading the full reference (schemas, examples, trying calls)…');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page);
    await keepScreenshot(page, testInfo, `docs-contents-${width}`);

    // A call chosen in the contents is where the full reference opens once drawn.
    await runWorkflow.click();
    await expect(page).toHaveURL(/\/docs#tag\/workflows\/POST\/run_workflow$/);
    release();
    const reference = page.locator('.api-reference');
    await expect(
      reference.getByRole('heading', { level: 3, name: /^Run a saved workflow in a new session/ }),
    ).toBeInViewport({ timeout: 60_000 });
    await expect(contents).toHaveCount(0);
    await expect(page.getByText(/Loading/)).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page);
    const shot = testInfo.outputPath(`docs-reference-${width}.png`);
    await page.screenshot({ path: shot });
    await testInfo.attach(`docs-reference-${width}`, { path: shot, contentType: 'image/png' });
    await page.unroute(/\/assets\/ApiReference-[\w-]+\.js$/);
  }
});
