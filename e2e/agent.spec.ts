import { expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';
import { expectScreenFirstWide, expectScreenUnderTitle } from './support/liveScreen.ts';

// The e2e server's fake model (e2e/support/writerModel.ts) answers the agent by a small script: a message →
// "Let me look at the page." and browser_snapshot; a snapshot with a link → browser_click on it; then done
// ("Clicked the link."). A message with the word "ask" → ask_user "Which one?" (First, Second), then done
// ("You chose <answer>.").

const PAGE = `<!doctype html><html lang="en"><head><title>Example Domain</title></head><body>
<h1>Example Domain</h1><p>This domain is for use in examples.</p><a href="#more">More information...</a></body></html>`;

test('the Agent page: start on a URL, the live view first and the chat under it, the answer streams in', async ({
  authed: page,
  api,
}, testInfo) => {
  test.setTimeout(120_000);
  const site = await serveHtml(PAGE);
  let sessionId: string | undefined;
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
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

    // The live browser first at 1280×800 (wide, from the top); the chat under it, one scroll away.
    const view = await expectScreenFirstWide(page);
    testInfo.annotations.push({ type: 'screen at 1280', description: JSON.stringify(view) });
    const chat = await page.getByRole('heading', { name: 'Chat' }).boundingBox();
    expect(chat!.y).toBeGreaterThan(view.y + view.height);

    await composer.fill('Click the link');
    await composer.press('Enter');
    const log = page.getByRole('list', { name: 'Conversation' });
    await expect(log).toContainText('Click the link');
    await expect(composer).toBeFocused();
    await expect(composer).toHaveValue('');
    // The agent's words, then its tool calls, each a folded line with its mark, then Done with the summary.
    await expect(log).toContainText('Let me look at the page.', { timeout: 30_000 });
    const snapshotLine = log.locator('summary').filter({ hasText: 'browser_snapshot' });
    const clickLine = log.locator('summary').filter({ hasText: 'browser_click' });
    await expect(snapshotLine).toContainText('✓', { timeout: 30_000 });
    await expect(clickLine).toContainText('✓', { timeout: 30_000 });
    await expect(clickLine).toContainText('succeeded');
    await expect(log.locator('li.agent-msg.done')).toHaveText('Done: Clicked the link.', { timeout: 30_000 });
    await expect(page.getByText('Idle: the agent waits for your next message.')).toBeVisible({ timeout: 30_000 });

    // A tool line opens from the keyboard (Enter, Space) to show the arguments the agent sent.
    const clickDetails = log
      .locator('details.agent-tool')
      .filter({ has: page.locator('summary').filter({ hasText: 'browser_click' }) });
    const clickArgs = clickDetails.locator('.agent-tool-detail pre').first();
    await expect(clickArgs).toBeHidden();
    await clickLine.focus();
    await page.keyboard.press('Enter');
    await expect(clickDetails).toHaveAttribute('open', '');
    await expect(clickArgs).toBeVisible();
    await expect(clickArgs).toContainText('"element": "More information..."');
    await expect(clickArgs).toContainText('"ref":');
    await page.keyboard.press('Space');
    await expect(clickArgs).toBeHidden();
    await page.keyboard.press('Space');
    await expect(clickArgs).toBeVisible();

    const steps = page.getByRole('region', { name: 'Recorded steps' });
    await expect(steps.locator('li[data-kind="click"]')).toHaveCount(1);
    await expect(steps.locator('li[data-kind="click"]')).toContainText(/click/i);
    const open = steps.getByRole('link', { name: 'Open workflow' });
    await expect(open).toHaveAttribute('href', /^\/workflows\/[0-9a-f-]{36}$/);
    const workflowId = (await open.getAttribute('href'))!.split('/').at(-1);
    await expect(steps.getByRole('link', { name: 'Run it' })).toHaveAttribute('href', `/run?workflow=${workflowId}`);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'agent-1280');

    // A message with "ask": the agent's question inline, with its options as buttons; the answer goes back to it.
    await composer.fill('Please ask me which one to use');
    await composer.press('Enter');
    const question = log.locator('li.agent-msg.question');
    await expect(question).toContainText('Which one?', { timeout: 30_000 });
    await expect(page.getByText('Waiting for you: the agent asked a question.')).toBeVisible();
    const options = question.getByRole('group', { name: 'Answers to choose from' });
    await expect(options.getByRole('button')).toHaveText(['First', 'Second']);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'agent-1280-question');
    await options.getByRole('button', { name: 'Second' }).click();
    await expect(log.locator('li.agent-msg.done').last()).toHaveText('Done: You chose Second.', { timeout: 30_000 });
    await expect(question).toContainText('Answered.');
    await expect(page.getByText('Idle: the agent waits for your next message.')).toBeVisible({ timeout: 30_000 });
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'agent-1280-answered');

    // A phone: one column, the screen under the title and the chat under the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const narrowView = await expectScreenUnderTitle(page);
    testInfo.annotations.push({ type: 'screen at 390', description: JSON.stringify(narrowView) });
    const narrowChat = await page.getByRole('heading', { name: 'Chat' }).boundingBox();
    expect(narrowChat!.y).toBeGreaterThan(narrowView.y + narrowView.height);
    // The narrower log wraps taller; it stays at its end, the last answer in sight.
    await expect.poll(() => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
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
    await expect(log).toContainText('Done: Clicked the link.');
    await expect(log).toContainText('Done: You chose Second.');
    await expect(composer).toBeDisabled();
    await expect(steps.getByRole('link', { name: 'Open workflow' })).toBeVisible();
    await expect(page.getByText('No agent in this session.')).toHaveCount(0);
  } finally {
    // The session's browser holds its connections to the page open: end it first, then the page closes at once.
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await site.close();
  }
});
