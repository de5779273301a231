import { expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';
import { editorText, typeFlow } from './support/flowEditor.ts';

// A Chrome Recorder export's layout: its keys in the Recorder's order ("type" first), which is not the schema's.
const recorderText = `${JSON.stringify(
  {
    title: 'Key order',
    steps: [
      {
        type: 'navigate',
        url: 'https://example.com/',
        assertedEvents: [{ type: 'navigation', url: 'https://example.com/', title: '' }],
      },
      {
        type: 'click',
        target: 'main',
        selectors: [['aria/More information...'], ['a']],
        offsetY: 9,
        offsetX: 40,
        duration: 5,
      },
    ],
    selectorAttribute: 'data-test',
  },
  null,
  2,
)}\n`;

test('the flow editor marks a bad step at its line, in words, with line numbers', async ({
  authed: page,
}, testInfo) => {
  await page.goto('/workflows/new');
  await page.getByLabel('Name').fill(`e2e marker ${Date.now()}`);
  // Line 8 holds step 2's misspelt type.
  const lines = [
    '{',
    '  "title": "t",',
    '  "steps": [',
    '    {',
    '      "type": "navigate", "url": "https://example.com/"',
    '    },',
    '    {',
    '      "type": "clik"',
    '    }',
    '  ]',
    '}',
  ];
  await typeFlow(page, lines.join('\n'));

  const marked = page.locator('.cm-line:has(.cm-lintRange-error)');
  await expect(marked).toHaveCount(1);
  await expect(marked).toHaveText('      "type": "clik"');
  // The gutter's marker sits beside line number 8.
  const number8 = page.locator('.cm-lineNumbers .cm-gutterElement', { hasText: /^8$/ });
  const marker = page.locator('.cm-gutter-lint .cm-lint-marker-error');
  await expect(marker).toHaveCount(1);
  const [a, b] = [await number8.boundingBox(), await marker.boundingBox()];
  expect(Math.abs(a!.y + a!.height / 2 - (b!.y + b!.height / 2))).toBeLessThan(4);

  const error = page.locator('#f-flowText-error');
  await expect(error).toContainText('Line 8: Step 2: "type" must be one of setViewport, navigate, click');
  await expect(error).not.toContainText('Invalid discriminator');
  await keepScreenshot(page, testInfo, 'workflow-editor-error-1280');

  // Fixed from the keyboard: the marker goes, the message with it.
  await page.keyboard.press('ControlOrMeta+End');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp'); // from line 11 to line 8
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('ck", "selectors": [["a"]], "offsetX": 1, "offsetY": 1, "x": "');
  await expect(marked).toHaveCount(0);
  await expect(error).toHaveCount(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'workflow-editor-1280');
});

test('a saved flow reads back byte for byte, its keys in the order written', async ({ authed: page, api }) => {
  await page.goto('/workflows/new');
  await page.getByLabel('Name').fill(`e2e order ${Date.now()}`);
  await typeFlow(page, recorderText);
  await page.getByRole('button', { name: 'Save workflow' }).click();
  await expect(page).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);
  const id = page.url().split('/').pop()!;

  await page.reload();
  await expect(page.locator('.cm-content')).toBeVisible();
  expect(await editorText(page)).toBe(recorderText);
  // And the API hands out the same keys in the same order.
  const stored = (await (await api.get(`/api/workflows/${id}`)).json()) as { flow: unknown };
  expect(`${JSON.stringify(stored.flow, null, 2)}\n`).toBe(recorderText);
  await api.delete(`/api/workflows/${id}`);
});

test('the flow editor at 390 px: no sideways scrolling, accessible', async ({ authed: page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/workflows/new');
  await typeFlow(page, recorderText.replace('https://example.com/', `https://example.com/${'long-path/'.repeat(30)}`));
  await expect(page.locator('.cm-content')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'workflow-editor-390');
});
