import { chromium } from '@playwright/test';
import { createWorkflow, expect, expectAccessible, keepScreenshot, test } from './support/fixtures.ts';

// Issue 47: Record on the session page, through the live view at 1280 px. Keys typed into the
// remote screen reach the session's browser as a person's, and come back as steps in words;
// Undo takes the last out; Stop and save makes a workflow of the rest.

const REMOTE_FORM = `data:text/html,${encodeURIComponent(
  '<title>form</title><label>First <input id="first" name="first"></label><label>Second <input id="second"></label>',
)}`;

test('Record: typing in the live view becomes steps, Undo takes one out, Stop and save makes a workflow', async ({
  authed: page,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const created = await api.post('/api/create_workflow_session', { data: { workflow_name: 'e2e recorder' } });
  expect(created.status()).toBe(200);
  const body = (await created.json()) as { session_id: string; connect_url: string };
  const remote = await chromium.connectOverCDP(body.connect_url);
  try {
    const context = remote.contexts()[0]!;
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(REMOTE_FORM);
    await tab.bringToFront();
    await tab.focus('#first');

    await page.goto(`/sessions/${body.session_id}`);
    await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Record' }).click();
    const steps = page.getByRole('list', { name: 'Recorded steps' }).getByRole('listitem');
    await expect(steps.first()).toHaveText(/Set the window to/);

    // Through the live view: the screen takes the keys.
    await page.locator('.bd-viewer canvas').focus();
    await page.keyboard.type('hello', { delay: 30 });
    await page.keyboard.press('Tab');
    await expect(steps.filter({ hasText: 'Type “hello” into' })).toHaveCount(1, { timeout: 15_000 });
    await expect(steps.last()).toHaveText(/Release the Tab key/, { timeout: 15_000 });
    const before = await steps.count();
    await keepScreenshot(page, testInfo, 'session-recording');

    await page.getByRole('button', { name: 'Undo last step' }).click();
    await expect(steps).toHaveCount(before - 1);
    await expect(steps.last()).toHaveText(/Press the Tab key/);
    await page.getByLabel('Workflow name').fill('Recorded in the live view');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Stop and save' }).click();
    await expect(page).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);

    const id = /\/workflows\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const saved = (await (await api.get(`/api/workflows/${id}`)).json()) as {
      name: string;
      flow: { steps: { type: string; value?: string; key?: string }[] };
    };
    expect(saved.name).toBe('Recorded in the live view');
    expect(saved.flow.steps.map((s) => s.type)).toEqual(['setViewport', 'navigate', 'change', 'keyDown']);
    expect(saved.flow.steps[2]!.value).toBe('hello');
  } finally {
    await remote.close();
    await api.delete(`/api/sessions/${body.session_id}`);
  }
});

test('Record in the workflow editor: the steps done in the live view go after the step chosen, and the workflow is saved', async ({
  authed: page,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const name = `e2e record into ${Date.now()}`;
  const id = await createWorkflow(api, name, {
    title: name,
    steps: [
      { type: 'navigate', url: 'https://example.com/' },
      { type: 'click', selectors: [['#go']], offsetX: 1, offsetY: 1 },
    ],
  });
  await page.goto(`/workflows/${id}`);
  const card = page.getByRole('region', { name: 'Record steps' });
  await card.getByLabel('Put the recorded steps').selectOption({ label: 'after step 1: Go to https://example.com/' });
  const created = page.waitForResponse((r) => r.url().endsWith('/api/create_workflow_session'));
  await card.getByRole('button', { name: 'Record', exact: true }).click();
  const body = (await (await created).json()) as { session_id: string; connect_url: string };
  const remote = await chromium.connectOverCDP(body.connect_url);
  try {
    await expect(card.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
    const context = remote.contexts()[0]!;
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.goto(REMOTE_FORM);
    await tab.bringToFront();
    await tab.focus('#first');

    const steps = card.getByRole('list', { name: 'Recorded steps' }).getByRole('listitem');
    await card.locator('.bd-viewer canvas').focus();
    await page.keyboard.type('hello', { delay: 30 });
    await page.keyboard.press('Tab');
    await expect(steps.filter({ hasText: 'Type “hello” into' })).toHaveCount(1, { timeout: 15_000 });
    await expect(steps.last()).toHaveText(/Release the Tab key/, { timeout: 15_000 });
    await card.getByRole('button', { name: 'Undo last step' }).click();
    await expect(steps.last()).toHaveText(/Press the Tab key/);
    // Going after other steps, the recording's own start (window size, first page) is left out unless kept.
    await expect(card.getByRole('checkbox', { name: /Keep the start steps/ })).not.toBeChecked();
    await expect(card.getByLabel('Put the recorded steps')).toHaveValue('0');
    await keepScreenshot(page, testInfo, 'editor-recording');
    await expectAccessible(page);

    await card.getByRole('button', { name: 'Stop and save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    // The recording's panel closes; the keyboard is left on Record, not on the page's top.
    await expect(card.getByRole('button', { name: 'Record', exact: true })).toBeFocused();
    const saved = (await (await api.get(`/api/workflows/${id}`)).json()) as {
      flow: { steps: { type: string; value?: string; key?: string; url?: string }[] };
    };
    expect(saved.flow.steps.map((s) => s.type)).toEqual(['navigate', 'change', 'keyDown', 'click']);
    expect(saved.flow.steps[0]!.url).toBe('https://example.com/');
    expect(saved.flow.steps[1]!.value).toBe('hello');
    expect(saved.flow.steps[2]!.key).toBe('Tab');
    // The browser opened for the recording closed with it.
    await expect
      .poll(async () => ((await (await api.get(`/api/sessions/${body.session_id}`)).json()) as { state: string }).state)
      .toBe('ended');
  } finally {
    await remote.close();
    await api.delete(`/api/sessions/${body.session_id}`);
  }
});
