import type { Page } from '@playwright/test';
import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { showMainMenu } from './support/mainMenu.ts';

// Issue 26, item 6: the API reference at /docs, and the session page's connect snippets.

const noSidewaysScroll = async (page: Page) => {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
};

// At 1280 px only: docs-contents.spec checks the page at 1280 and 390 px, with axe counting every
// impact, and phone-nav.spec the menu that reaches it on a phone.
test(`/docs at 1280 px: reached from the nav, renders the API's operations, dark too`, async ({
  authed: page,
}, testInfo) => {
  // Scalar's page is long and heavy (axe alone takes seconds on a busy machine).
  test.slow();
  const width = 1280;
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/writer');
  await showMainMenu(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API docs' }).click();
  // Scalar writes the section in view into the hash as one reads.
  await expect(page).toHaveURL(/\/docs(#.*)?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  await expect(page).toHaveTitle('API docs · Browserdesk');
  // Scalar's rendering of the document: every tag lists its operations by method and path.
  const reference = page.locator('.api-reference');
  const workflowOps = reference.getByRole('list', { name: 'workflows endpoints' }).getByRole('listitem');
  await expect(workflowOps.filter({ hasText: /^\s*post\s*\/run_workflow\s*$/i })).toHaveCount(1, { timeout: 30_000 });
  await expect(reference.getByRole('heading', { level: 2, name: 'sessions' })).toBeAttached();
  // An operation's own address opens it, with its summary as its heading.
  await page.goto('/docs#tag/workflows/POST/run_workflow');
  await expect(
    reference.getByRole('heading', { level: 3, name: /^Run a saved workflow in a new session/ }),
  ).toBeInViewport({ timeout: 30_000 });
  await expect(page.getByText(/Loading/)).toHaveCount(0);
  // The document's link is this server's, and the saved key is nowhere in the page.
  await expect(page.getByRole('link', { name: 'openapi.json' })).toHaveAttribute('href', /\/api\/openapi\.json$/);
  expect(await page.content()).not.toContain('e2e_key_0123456789abcdef');
  await noSidewaysScroll(page);
  // What the reader sees first, not the whole 40 000 px page.
  const shot = testInfo.outputPath(`docs-${width}.png`);
  await page.screenshot({ path: shot });
  await testInfo.attach(`docs-${width}`, { path: shot, contentType: 'image/png' });
  // Dark, like the rest of the dashboard when the system is: the reference's colours are ours.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('body.dark-mode')).toBeAttached();
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: 'light' });
  // A key typed to try calls goes into the examples and is forgotten: never stored, gone on reload.
  await page.goto('/docs');
  const keyField = reference.getByLabel('Value', { exact: true }).first();
  await keyField.fill('typed_key_not_kept');
  await expect(reference.getByText(/typed_key_not_kept/).first()).toBeAttached();
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('typed_key_not_kept');
  await page.reload();
  await expect(reference.getByLabel('Value', { exact: true }).first()).toHaveValue('', { timeout: 30_000 });
});

for (const width of [1280, 390]) {
  test(`session page at ${width} px: each client's snippet holds this session, copies, accessible`, async ({
    authed: page,
    api,
    context,
    baseURL,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({ width, height: 900 });
    const created = await api.post('/api/create_workflow_session', {
      data: { workflow_name: `e2e snippets ${width}` },
    });
    expect(created.status()).toBe(200);
    const { session_id: id } = (await created.json()) as { session_id: string };
    try {
      await page.goto(`/sessions/${id}`);
      const connectUrl = (await page.getByTestId('connect-url').textContent())!.trim();
      expect(connectUrl).toContain(`/s/${id}/cdp?token=`);
      const panel = page.getByRole('region', { name: 'Connect with code' });
      const tabs = panel.getByRole('tablist', { name: 'Client' });
      const apiBase = `${baseURL}/api`;
      const expected: Record<string, string[]> = {
        'Playwright (JS)': [`chromium.connectOverCDP(${JSON.stringify(connectUrl)})`],
        'Playwright (Python)': [`p.chromium.connect_over_cdp(${JSON.stringify(connectUrl)})`],
        Puppeteer: [`browserWSEndpoint: ${JSON.stringify(connectUrl)}`],
        curl: [`'${apiBase}/sessions/${id}'`, `'${apiBase}/session/${id}/status'`, 'X-API-Key: $BROWSERDESK_API_KEY'],
        'simplex-ts': [`baseURL: "${apiBase}"`, `getSessionStatus("${id}")`],
        'Python client': [`base_url="${apiBase}"`, `get_session_status("${id}")`],
      };
      for (const [label, parts] of Object.entries(expected)) {
        await tabs.getByRole('tab', { name: label }).click();
        await expect(tabs.getByRole('tab', { name: label })).toHaveAttribute('aria-selected', 'true');
        const panelShown = panel.getByRole('tabpanel', { name: label });
        for (const part of parts) await expect(panelShown).toContainText(part);
        await expect(panelShown).not.toContainText('e2e_key_0123456789abcdef');
      }

      // The tabs pattern: arrow keys move the selection and the focus, wrapping at the ends.
      await tabs.getByRole('tab', { name: 'Playwright (JS)' }).click();
      await page.keyboard.press('ArrowLeft');
      await expect(tabs.getByRole('tab', { name: 'Python client' })).toBeFocused();
      await expect(tabs.getByRole('tab', { name: 'Python client' })).toHaveAttribute('aria-selected', 'true');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect(tabs.getByRole('tab', { name: 'Playwright (Python)' })).toBeFocused();
      await expect(panel.getByRole('tabpanel', { name: 'Playwright (Python)' })).toBeVisible();
      await expect(panel.getByRole('tabpanel')).toHaveCount(1);

      // Copy puts the whole script on the clipboard, and the button says so.
      const copy = panel
        .getByRole('tabpanel', { name: 'Playwright (Python)' })
        .getByRole('button', { name: 'Copy script' });
      await copy.click();
      await expect(panel.getByRole('button', { name: 'Copied' })).toBeVisible();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toContain(`p.chromium.connect_over_cdp(${JSON.stringify(connectUrl)})`);
      expect(copied).toBe((await page.getByTestId('snippet-playwright-python').textContent())!);

      await noSidewaysScroll(page);
      await expectAccessible(page);
      await panel.scrollIntoViewIfNeeded();
      await panel.screenshot({ path: testInfo.outputPath(`snippets-panel-${width}.png`) });
      await keepScreenshot(page, testInfo, `snippets-${width}`);
    } finally {
      await api.delete(`/api/sessions/${id}`);
    }
  });
}
