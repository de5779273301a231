import { chromium } from '@playwright/test';
import { createWorkflow, expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';

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

// A site the test run replays on: a name and a password, each labelled.
const SIGN_UP = `<!doctype html><title>Sign up</title>
<label>First <input id="first" name="first"></label>
<label>Password <input id="password" name="password" type="password"></label>`;

test('Record into a new, unsaved workflow: Save and record, a typed value made a variable, then a test run succeeds', async ({
  authed: page,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const site = await serveHtml(SIGN_UP);
  const name = `e2e record new ${Date.now()}`;
  let sessionId: string | undefined;
  let remote: Awaited<ReturnType<typeof chromium.connectOverCDP>> | undefined;
  try {
    await page.goto('/workflows/new');
    const card = page.getByRole('region', { name: 'Record steps' });
    await card.getByLabel('Start page (optional)').fill(`${site.origin}/`);
    // Not saved yet, and no name: Save and record saves nothing, and says what is missing; nothing typed is lost.
    await card.getByRole('button', { name: 'Save and record' }).click();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/workflows\/new$/);
    await expect(card.getByLabel('Start page (optional)')).toHaveValue(`${site.origin}/`);

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/create_workflow_session'));
    await card.getByRole('button', { name: 'Save and record' }).click();
    await expect(page).toHaveURL(/\/workflows\/[0-9a-f-]{36}$/);
    const id = /\/workflows\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    const body = (await (await created).json()) as { session_id: string; connect_url: string };
    sessionId = body.session_id;
    await expect(card.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 20_000 });
    const steps = card.getByRole('list', { name: 'Recorded steps' }).getByRole('listitem');
    await expect(steps.filter({ hasText: `${site.origin}/` })).toHaveCount(1);

    remote = await chromium.connectOverCDP(body.connect_url);
    const context = remote.contexts()[0]!;
    const tab = context.pages().find((p) => p.url().startsWith(site.origin)) ?? context.pages()[0]!;
    await tab.bringToFront();
    await tab.focus('#first');

    // Through the live view: a name, Tab, a password, Tab.
    await card.locator('.bd-viewer canvas').focus();
    await page.keyboard.type('hello', { delay: 30 });
    await page.keyboard.press('Tab');
    await expect(steps.filter({ hasText: 'Type “hello” into' })).toHaveCount(1, { timeout: 15_000 });
    await page.keyboard.type('typed-secret', { delay: 30 });
    await page.keyboard.press('Tab');
    await expect(steps.filter({ hasText: /Type .*\{\{password\}\}/ })).toHaveCount(1, { timeout: 15_000 });

    const make = card.getByRole('checkbox', { name: /Make “hello” \(step \d+\) a variable/ });
    await make.focus();
    await page.keyboard.press('Space');
    const varName = card.getByRole('textbox', { name: 'Name of the variable for “hello”' });
    await expect(varName).toHaveValue('first');
    await varName.fill('1st');
    await expect(card.getByRole('button', { name: 'Stop and save' })).toBeDisabled();
    await varName.fill('greeting');
    await expect(card.getByRole('button', { name: 'Stop and save' })).toBeEnabled();
    // The recording's panel, at 1280 px and at a phone's 390 px.
    const panelShot = async (shot: string) => {
      const file = testInfo.outputPath(`${shot}.png`);
      await card.screenshot({ path: file });
      await testInfo.attach(shot, { path: file, contentType: 'image/png' });
    };
    await panelShot('editor-recording-panel-1280');
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await panelShot('editor-recording-panel-390');
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 900 });

    await card.getByRole('button', { name: 'Stop and save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    const saved = (await (await api.get(`/api/workflows/${id}`)).json()) as {
      flow: { steps: { type: string; value?: string; url?: string }[] };
      variables: { name: string; default?: unknown; required: boolean }[];
    };
    expect(saved.flow.steps.find((s) => s.type === 'navigate')?.url).toBe(`${site.origin}/`);
    expect(saved.flow.steps.filter((s) => s.type === 'change').map((s) => s.value)).toEqual([
      '{{greeting}}',
      '{{password}}',
    ]);
    expect(saved.variables).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'greeting', default: 'hello', required: false }),
        expect.objectContaining({ name: 'password', required: true }),
      ]),
    );
    expect(JSON.stringify(saved)).not.toContain('typed-secret');

    // The test run asks for the password (hidden), runs the saved workflow, and says how it went.
    const testRun = page.getByRole('region', { name: 'Test run' });
    const password = testRun.getByLabel(/^password/);
    await expect(password).toHaveAttribute('type', 'password');
    await expect(testRun.getByLabel(/^greeting/)).toHaveCount(0);
    await testRun.getByRole('button', { name: 'Test run', exact: true }).click();
    await expect(testRun.getByRole('alert')).toContainText(/required/);
    await password.fill('s3cret');
    await testRun.getByRole('button', { name: 'Test run', exact: true }).click();
    await expect(password).toHaveValue('');
    await expect(testRun.getByRole('status')).toContainText('The test run succeeded', { timeout: 60_000 });
    const runLink = testRun.getByRole('link', { name: "Open the run's page" });
    await expect(runLink).toHaveAttribute('href', /^\/runs\/[0-9a-f-]{36}$/);
    await keepScreenshot(page, testInfo, 'new-workflow-test-run');
    await expectAccessible(page);
  } finally {
    await remote?.close();
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await site.close();
  }
});
