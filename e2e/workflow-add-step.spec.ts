import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, serveHtml, shotsCopiedTo, test } from './support/fixtures.ts';
import { showMainMenu } from './support/mainMenu.ts';

const shot = shotsCopiedTo((name) => `/tmp/workflow-add-step-${name}.png`);

// The type step only finds its field after the click showed it: a run that succeeds did all three.
const SITE = `<!doctype html><title>Greeting</title>
<button id="start" style="padding: 8px 16px">Start</button>
<form id="form" hidden><label>Name <input id="name"></label></form>
<script>start.addEventListener('click', () => (form.hidden = false));</script>`;

/** axe finds nothing at all on the page, of any impact. */
async function expectNoViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Open "Add step" and choose `label`: by keyboard (arrow keys from the first choice) or by pointer. */
async function addStep(page: Page, label: string, by: 'keyboard' | 'pointer'): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Add step' });
  const choices = page.getByRole('list', { name: 'Step to add' });
  if (by === 'pointer') {
    await toggle.click();
    await choices.getByRole('button', { name: label, exact: true }).click();
    return;
  }
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(choices.getByRole('button', { name: 'Go to', exact: true })).toBeFocused();
  const wanted = choices.getByRole('button', { name: label, exact: true });
  for (let i = 0; i < 10 && !(await wanted.evaluate((b) => b === document.activeElement)); i++)
    await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** Replace the focused input's text from the keyboard, as a person would. */
async function typeOver(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** Go to + click + type, built with the menu only (no JSON typed), and saved: the new workflow's id. */
async function buildAndSave(page: Page, siteUrl: string, by: 'keyboard' | 'pointer'): Promise<string> {
  const list = page.getByRole('region', { name: /^Steps/ });
  await addStep(page, 'Go to', by);
  await expect(list.getByRole('textbox', { name: 'Step 1 URL' })).toBeFocused();
  await typeOver(page, siteUrl);
  await addStep(page, 'Click', by);
  await expect(list.getByRole('textbox', { name: 'Step 2 Selector' })).toBeFocused();
  await typeOver(page, '#start');
  await addStep(page, 'Type', by);
  await expect(list.getByRole('textbox', { name: 'Step 3 Selector' })).toBeFocused();
  await typeOver(page, '#name');
  await list.getByRole('textbox', { name: 'Step 3 Value' }).fill('Ada');
  await expect(list.locator('.flow-step-words')).toHaveText([
    `Step 1: Go to ${siteUrl}`,
    'Step 2: Click #start',
    'Step 3: Type “Ada” into #name',
  ]);
  await page.getByRole('button', { name: 'Save workflow' }).click();
  await expect(page).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  return page.url().split('/').at(-1)!;
}

test('a workflow built with Add step only saves and runs (1280 px, keyboard)', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml(SITE);
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/workflows/new');
    await page.getByLabel('Name').fill(`e2e add step ${Date.now()}`);
    // The empty list offers the agent as well as Add step.
    await expect(page.getByText(/No steps yet/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Record with the agent' })).toHaveAttribute('href', '/agent');
    await page.getByRole('button', { name: 'Add step' }).click();
    await expect(page.getByRole('list', { name: 'Step to add' }).getByRole('button')).toHaveCount(10);
    await expectNoViolations(page);
    await shot(page, testInfo, '1280-menu');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Add step' })).toBeFocused();
    await expect(page.getByRole('button', { name: 'Add step' })).toHaveAttribute('aria-expanded', 'false');

    const id = await buildAndSave(page, `${site.origin}/greet`, 'keyboard');
    await expectNoViolations(page);
    await shot(page, testInfo, '1280');

    // Stored as the server's step types, the click given the Recorder's offsets by the contract.
    const saved = (await (await api.get(`/api/workflows/${id}`)).json()) as { flow: { steps: unknown[] } };
    expect(saved.flow.steps).toEqual([
      { type: 'navigate', url: `${site.origin}/greet` },
      { type: 'click', selectors: [['#start']], offsetX: 1, offsetY: 1 },
      { type: 'change', selectors: [['#name']], value: 'Ada' },
    ]);
    // And it runs: the type step finds its field only once the click has shown it.
    const started = await api.post('/api/run_workflow', { data: { workflow_id: id } });
    expect(started.status()).toBe(200);
    const sessionId = ((await started.json()) as { session_id: string }).session_id;
    const status = async () =>
      (await (await api.get(`/api/session/${sessionId}/status`)).json()) as {
        in_progress: boolean;
        success: boolean | null;
        final_message: string | null;
      };
    await expect.poll(async () => (await status()).in_progress, { timeout: 60_000 }).toBe(false);
    expect(await status()).toMatchObject({ success: true, final_message: 'All 3 steps succeeded' });
  } finally {
    await site.close();
  }
});

test('Add step on a phone: the choices fit, nothing scrolls sideways, a step goes in after a chosen one (390 px)', async ({
  authed: page,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/workflows/new');
  await page.getByLabel('Name').fill(`e2e add step phone ${Date.now()}`);
  await expect(page.getByRole('link', { name: 'Record with the agent' })).toBeVisible();
  await page.getByRole('button', { name: 'Add step' }).click();
  const choices = page.getByRole('list', { name: 'Step to add' });
  // Two columns within the card.
  const [first, second] = [
    await choices.getByRole('button').nth(0).boundingBox(),
    await choices.getByRole('button').nth(1).boundingBox(),
  ];
  expect(Math.abs(first!.y - second!.y)).toBeLessThan(2);
  expect(second!.x + second!.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoViolations(page);
  await choices.screenshot({ path: '/tmp/workflow-add-step-390-choices.png' });
  await shot(page, testInfo, '390-menu');
  await page.keyboard.press('Escape');

  const id = await buildAndSave(page, 'https://example.com/start', 'pointer');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoViolations(page);
  await shot(page, testInfo, '390');
  // A step goes in after a chosen one from that step's own menu; its choices fit the step's card.
  const list = page.getByRole('region', { name: /^Steps/ });
  await list.getByRole('button', { name: 'Add a step after step 1' }).click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectNoViolations(page);
  await shot(page, testInfo, '390-step-after');
  await choices.getByRole('button', { name: 'Wait for', exact: true }).click();
  await expect(list.getByRole('textbox', { name: 'Step 2 Selector' })).toBeFocused();
  await typeOver(page, '#start');
  await page.getByRole('button', { name: 'Save workflow' }).click();
  const savedTypes = async () => {
    const saved = (await (await api.get(`/api/workflows/${id}`)).json()) as { flow: { steps: { type: string }[] } };
    return saved.flow.steps.map((s) => s.type);
  };
  await expect.poll(savedTypes).toEqual(['navigate', 'waitForElement', 'click', 'change']);
  // And dark: the choices' words and hints keep their contrast.
  await showMainMenu(page);
  await page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Dark' });
  await page.getByRole('button', { name: 'Add step' }).click();
  await expectNoViolations(page);
  await choices.screenshot({ path: '/tmp/workflow-add-step-390-choices-dark.png' });
});
