import type { Page } from '@playwright/test';
import { expect, expectAccessible, shotsCopiedTo, test } from './support/fixtures.ts';
import { editorText, typeFlow } from './support/flowEditor.ts';
import { showMainMenu } from './support/mainMenu.ts';

const shot = shotsCopiedTo((name) => `/tmp/workflow-steps-${name}.png`);

// Written by hand: short steps on one line, a long one over several, keys in an order of its own.
const flowLines = [
  '{',
  '  "title": "Search",',
  '  "steps": [',
  '    { "type": "navigate", "url": "https://example.com/" },',
  '    {',
  '      "selectors": [["aria/Search"], ["input[name=q]"]],',
  '      "type": "change",',
  '      "value": "{{query}}"',
  '    },',
  '    { "type": "click", "selectors": [["#submit"]], "offsetX": 1, "offsetY": 1 },',
  '    { "type": "customStep", "name": "pause", "parameters": { "message": "Solve the puzzle" } }',
  '  ]',
  '}',
];
const flowText = flowLines.join('\n');
const stepWords = (page: Page) => page.locator('.flow-step-words').allTextContents();

test('the step list edits the JSON in place: a value, the order, a deletion (1280 px)', async ({
  authed: page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/workflows/new');
  await page.getByLabel('Name').fill(`e2e steps ${Date.now()}`);
  await typeFlow(page, flowText);
  // Named by its heading, which counts the steps.
  const list = page.getByRole('region', { name: /^Steps · \d+$/ });
  await expect(list.getByRole('heading', { name: 'Steps · 4' })).toBeVisible();
  expect(await stepWords(page)).toEqual([
    'Step 1: Go to https://example.com/',
    'Step 2: Type “{{query}}” into aria/Search (or 1 more)',
    'Step 3: Click #submit',
    'Step 4: Pause for a person: “Solve the puzzle”',
  ]);
  // Side by side: the list's top is level with the editor's card, to its right.
  const [code, steps] = [await page.locator('.flow-panes > .card').first().boundingBox(), await list.boundingBox()];
  expect(steps!.x).toBeGreaterThan(code!.x + code!.width - 1);
  expect(Math.abs(steps!.y - code!.y)).toBeLessThan(2);

  // A value typed in the list: only that string changes in the JSON.
  const value = list.getByRole('textbox', { name: 'Step 2 Value' });
  await value.fill('{{query}} near {{city}}');
  await expect(list.getByText('Uses the variable query, the variable city.')).toBeVisible();
  let expected = flowText.replace('"value": "{{query}}"', '"value": "{{query}} near {{city}}"');
  await expect.poll(() => editorText(page)).toBe(expected);
  // The variables card offers to declare the placeholders, as after an edit in the JSON.
  const declare = page.getByRole('button', { name: 'Add 2 variables' });
  await expect(declare).toBeVisible();

  // Step 3 up, from the keyboard: the two steps swap, each keeping its own lines.
  await list.getByRole('button', { name: 'Move step 3 up' }).focus();
  await page.keyboard.press('Enter');
  // The click's line now comes before the change's lines; the separators stay where they were.
  expected = [...flowLines.slice(0, 4), flowLines[9], ...flowLines.slice(4, 9), ...flowLines.slice(10)]
    .join('\n')
    .replace('"value": "{{query}}"', '"value": "{{query}} near {{city}}"');
  await expect.poll(() => editorText(page)).toBe(expected);
  await expect(list.getByRole('button', { name: 'Move step 2 up' })).toBeFocused();
  expect((await stepWords(page))[1]).toBe('Step 2: Click #submit');
  await expectAccessible(page);
  await shot(page, testInfo, '1280');

  // Delete with Undo: the text comes back exactly.
  const beforeDelete = await editorText(page);
  await list.getByRole('button', { name: 'Delete step 4' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Step 4 (Pause for a person: “Solve the puzzle”) deleted.' }),
  ).toBeVisible();
  await expect(list.locator('ol.flow-steps > li')).toHaveCount(3);
  await expect(list.getByRole('heading', { name: 'Steps · 3' })).toBeVisible();
  expect(await editorText(page)).not.toContain('Solve the puzzle');
  await expect(list.getByRole('button', { name: 'Undo' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(() => editorText(page)).toBe(beforeDelete);
  await list.getByRole('button', { name: 'Delete step 1' }).click();
  await expect(list.locator('ol.flow-steps > li')).toHaveCount(3);
  const afterDelete = await editorText(page);
  expect(afterDelete).toBe(beforeDelete.replace('    { "type": "navigate", "url": "https://example.com/" },\n', ''));

  // Saved, the flow reads back in the layout it was written in (this browser kept it).
  await declare.click();
  await page.getByRole('button', { name: 'Save workflow' }).click();
  await expect(page).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);
  await page.reload();
  await expect(page.locator('.cm-content')).toBeVisible();
  await expect.poll(() => editorText(page)).toBe(afterDelete);
});

test('the step list stacks under the editor at 390 px, with no sideways scroll', async ({ authed: page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/workflows/new');
  await page.getByLabel('Name').fill(`e2e steps phone ${Date.now()}`);
  await typeFlow(page, flowText);
  const list = page.getByRole('region', { name: 'Steps · 4' });
  await expect(list).toBeVisible();
  const [code, steps] = [await page.locator('.flow-panes > .card').first().boundingBox(), await list.boundingBox()];
  expect(steps!.y).toBeGreaterThan(code!.y + code!.height - 1);
  await list.getByRole('textbox', { name: 'Step 1 URL' }).fill('https://example.org/start');
  await expect.poll(() => editorText(page)).toBe(flowText.replace('https://example.com/', 'https://example.org/start'));
  await list.getByRole('button', { name: 'Move step 1 down' }).click();
  expect((await stepWords(page)).slice(0, 2)).toEqual([
    'Step 1: Type “{{query}}” into aria/Search (or 1 more)',
    'Step 2: Go to https://example.org/start',
  ]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, testInfo, '390');
  await list.screenshot({ path: '/tmp/workflow-steps-390-list.png' });
  // And dark: the placeholders and the editor keep their contrast.
  await showMainMenu(page);
  await page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Dark' });
  await expectAccessible(page);
  await list.screenshot({ path: '/tmp/workflow-steps-390-list-dark.png' });
  await page.locator('.flow-panes > .card').first().screenshot({ path: '/tmp/workflow-steps-390-editor-dark.png' });
});

test('the run form says up front which files and credentials the workflow needs', async ({
  authed: page,
  api,
}, testInfo) => {
  const stamp = Date.now();
  const stored = `e2e_stored_${stamp}`;
  const missing = `e2e_missing_${stamp}`;
  expect((await api.post('/api/store_credential', { data: { name: stored, value: 'secret' } })).ok()).toBe(true);
  const name = `e2e needs ${stamp}`;
  const created = await api.post('/api/workflows', {
    data: {
      name,
      flow: {
        title: name,
        steps: [
          { type: 'navigate', url: 'about:blank' },
          { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#file']], file: 'report.pdf' } },
          { type: 'change', value: `{{credentials.${stored}}}`, selectors: [['#user']] },
          { type: 'change', value: `{{credentials.${missing}}}`, selectors: [['#pw']] },
        ],
      },
      variables: [],
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    await page.goto(`/run?workflow=${id}`);
    const needs = page.getByRole('region', { name: 'What this workflow needs' });
    await expect(needs).toBeVisible();
    const files = needs.getByRole('list', { name: 'A file, chosen under Files below' });
    await expect(files).toHaveText('report.pdf not chosen yet');
    const credentials = needs.getByRole('list', { name: '2 stored credentials' });
    await expect(credentials.getByRole('listitem').first()).toHaveText(`${stored} ✓ stored`);
    await expect(credentials.getByRole('link', { name: `add ${missing} in Settings` })).toHaveAttribute(
      'href',
      '/settings#credentials-title',
    );
    // It comes before the form's fields, and the chosen file ticks it off.
    await page
      .locator('input[type="file"][multiple]')
      .setInputFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect(files).toHaveText('report.pdf ✓ chosen');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await shot(page, testInfo, `run-needs-${width}`);
  }

  await page.getByRole('link', { name: `add ${missing} in Settings` }).click();
  await expect(page).toHaveURL(/\/settings#credentials-title$/);
  await expect(page.getByRole('heading', { name: 'Credentials' })).toBeInViewport();
  await api.delete(`/api/workflows/${id}`);
  await api.post('/api/delete_credential', { data: { name: stored } });
});

test('the theme toggle switches, is applied before the first paint and persists over a reload', async ({
  authed: page,
}, testInfo) => {
  // What <html> says when <body> first appears: before any paint, and before the app's own script.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      (window as unknown as { themeAtBody: string | null }).themeAtBody =
        document.documentElement.getAttribute('data-theme');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.emulateMedia({ colorScheme: 'light' });
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
    await page.goto('/workflows');
    // On a phone the theme select is in the header's Menu.
    await showMainMenu(page);
    const theme = page.getByRole('combobox', { name: 'Theme' });
    await expect(theme).toHaveValue('system');
    expect(await background()).toBe('rgb(246, 247, 249)');

    await theme.selectOption({ label: 'Dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await background()).toBe('rgb(18, 22, 29)');
    await page.reload();
    await showMainMenu(page);
    await expect(theme).toHaveValue('dark');
    expect(await page.evaluate(() => (window as unknown as { themeAtBody: string | null }).themeAtBody)).toBe('dark');
    expect(await background()).toBe('rgb(18, 22, 29)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await shot(page, testInfo, `theme-dark-${width}`);

    // Light wins over a dark system; System follows it again.
    await page.emulateMedia({ colorScheme: 'dark' });
    await theme.selectOption({ label: 'Light' });
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.reload();
    await showMainMenu(page);
    expect(await page.evaluate(() => (window as unknown as { themeAtBody: string | null }).themeAtBody)).toBe('light');
    expect(await background()).toBe('rgb(246, 247, 249)');
    await theme.selectOption({ label: 'System' });
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
    expect(await background()).toBe('rgb(18, 22, 29)');
    await page.reload();
    await showMainMenu(page);
    await expect(theme).toHaveValue('system');
    expect(await page.evaluate(() => localStorage.getItem('browserdesk.theme'))).toBeNull();
    await page.emulateMedia({ colorScheme: 'light' });
  }
});
