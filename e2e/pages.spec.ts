import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// Every page at both widths: no serious or critical axe violation, and a screenshot kept.
const PAGES = [
  { path: '/settings', heading: 'Settings' },
  { path: '/writer', heading: 'Writer' },
  { path: '/sessions', heading: 'Sessions' },
  { path: '/workflows', heading: 'Workflows' },
  { path: '/workflows/new', heading: 'New workflow' },
  { path: '/run', heading: 'Run a workflow' },
  { path: '/runs', heading: 'Runs' },
];

for (const width of [1280, 390]) {
  for (const p of PAGES) {
    test(`${p.path} at ${width} px is accessible`, async ({ authed: page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
      await expect(page.getByText(/Loading/)).toHaveCount(0);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `${p.path.slice(1).replace(/\W+/g, '-')}-${width}`);
    });
  }
}

test('a workflow with a bad step shows the message at its line; delete asks first', async ({ authed: page }) => {
  await page.goto('/workflows/new');
  await page.getByLabel('Name').fill(`e2e edit ${Date.now()}`);
  // The flow is a CodeMirror editor (contenteditable): select its text and type over it from the keyboard.
  const flow = page.getByRole('textbox', { name: 'Flow (Chrome Recorder JSON)' });
  await flow.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(
    '{\n  "title": "t",\n  "steps": [\n    { "type": "navigate", "url": "https://example.com/{{who}}" }\n  ]\n}\n',
  );
  await page.getByRole('button', { name: 'Save workflow' }).click();
  await expect(page.getByText(/Line 4: Step 1 \(navigate\) uses \{\{who\}\}/)).toBeVisible();
  // The editor offers to declare what the flow's placeholders use.
  await page.getByRole('button', { name: 'Add variable who' }).click();
  await expect(page.getByLabel('Name', { exact: true }).nth(1)).toHaveValue('who');
  await page.getByRole('button', { name: 'Save workflow' }).click();
  await expect(page).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Saved.')).toBeVisible();

  await page.getByRole('link', { name: '← Workflows' }).click();
  const row = page.getByRole('row').filter({ hasText: 'e2e edit' }).first();
  await row.getByRole('button', { name: /Delete/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this workflow?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /Delete/ }).click();
  await dialog.getByRole('button', { name: 'Delete workflow' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'e2e edit' })).toHaveCount(0);
});
