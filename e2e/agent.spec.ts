import { expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';

// The e2e server's fake model (e2e/support/writerModel.ts) answers every request with this text, streamed.
const FIRST_WORDS = 'The harbour woke slowly that morning.';

const PAGE = `<!doctype html><html lang="en"><head><title>Example Domain</title></head><body>
<h1>Example Domain</h1><p>This domain is for use in examples.</p><a href="#more">More information...</a></body></html>`;

test('the Agent page: start on a URL, chat beside the live view, the answer streams in', async ({
  authed: page,
  api,
}, testInfo) => {
  test.setTimeout(120_000);
  const site = await serveHtml(PAGE);
  let sessionId: string | undefined;
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agent' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Agent' })).toBeVisible();
    await expect(page).toHaveTitle('Agent · Browserdesk');
    await expectAccessible(page);

    await page.getByLabel('Workflow name').fill('E2E agent');
    await page.getByLabel('Start URL').fill(`${site.origin}/`);
    await page.getByRole('button', { name: 'Add a variable' }).click();
    await page.getByLabel('Variable 1 name').fill('email');
    await page.getByLabel('Variable 1 value').fill('a@example.com');
    await page.getByRole('button', { name: 'Start the agent' }).click();
    await expect(page).toHaveURL(/\/agent\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    sessionId = new URL(page.url()).pathname.split('/').at(-1);
    // Started from here: the cursor is in the composer, ready for the first message.
    const composer = page.getByLabel('Message to the agent');
    await expect(composer).toBeFocused();
    await expect(page.getByRole('heading', { level: 1, name: 'Agent: E2E agent' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Live browser' })).toBeVisible();

    // Two columns on a wide screen: the chat to the right of the live view.
    const view = await page.getByRole('heading', { name: 'Live browser' }).boundingBox();
    const chat = await page.getByRole('heading', { name: 'Chat' }).boundingBox();
    expect(chat!.x).toBeGreaterThan(view!.x + 300);

    await composer.fill('Click the More information link');
    await composer.press('Enter');
    const log = page.getByRole('list', { name: 'Conversation' });
    await expect(log).toContainText('Click the More information link');
    await expect(composer).toBeFocused();
    await expect(composer).toHaveValue('');
    await expect(log).toContainText(FIRST_WORDS, { timeout: 30_000 });
    await expect(log).toContainText('smelled of salt and bread.', { timeout: 30_000 });
    await expect(page.getByText('Idle: the agent waits for your next message.')).toBeVisible({ timeout: 30_000 });

    const steps = page.getByRole('region', { name: 'Recorded steps' });
    await expect(steps.getByRole('link', { name: 'Open workflow' })).toHaveAttribute(
      'href',
      /^\/workflows\/[0-9a-f-]{36}$/,
    );
    await expect(steps.getByRole('link', { name: 'Run it' })).toHaveAttribute(
      'href',
      /^\/run\?workflow=[0-9a-f-]{36}$/,
    );
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'agent-1280');

    // A phone: one column, the chat under the live view.
    await page.setViewportSize({ width: 390, height: 844 });
    const narrowView = await page.getByRole('heading', { name: 'Live browser' }).boundingBox();
    const narrowChat = await page.getByRole('heading', { name: 'Chat' }).boundingBox();
    expect(narrowChat!.y).toBeGreaterThan(narrowView!.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'agent-390');
    // The dark theme keeps its contrast too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'agent-390-dark');

    // Ended (here through the API): the page says so and the composer takes no more messages.
    await api.delete(`/api/sessions/${sessionId}`);
    sessionId = undefined;
    await expect(page.getByText('The session has ended; the agent takes no more messages.')).toBeVisible();
    await expect(composer).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
    // Read again later, with the agent gone: the conversation and the workflow's links are still there.
    await page.reload();
    await expect(log).toContainText('smelled of salt and bread.');
    await expect(composer).toBeDisabled();
    await expect(steps.getByRole('link', { name: 'Open workflow' })).toBeVisible();
    await expect(page.getByText('No agent in this session.')).toHaveCount(0);
  } finally {
    // The session's browser holds its connections to the page open: end it first, then the page closes at once.
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await site.close();
  }
});
