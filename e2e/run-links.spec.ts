import {
  createWorkflow,
  expect,
  expectAccessible,
  keepScreenshot,
  runUntilSessionEnds,
  serveHtml,
  test,
} from './support/fixtures.ts';

// Runs and their sessions, linked both ways; a paused run says where it stopped and what is to come.
const PAGE = `<!doctype html><title>Form</title><input id="code" aria-label="Code"><p id="echo">echo</p>`;

test('a paused run says which step it stopped at, lists the steps to come, and its session page names the run', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml(PAGE);
  const name = `e2e paused ${Date.now()}`;
  let sessionId = '';
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name,
        flow: {
          title: 'Stop for a person',
          steps: [
            { type: 'navigate', url: `${site.origin}/form` },
            { type: 'customStep', name: 'pause', parameters: { message: 'Check the form' } },
            { type: 'customStep', name: 'extract', parameters: { selectors: [['#echo']], as: 'echo' } },
          ],
        },
        variables: [],
      },
    });
    expect(created.status()).toBe(201);
    const started = await api.post('/api/run_workflow', {
      data: { workflow_id: ((await created.json()) as { id: string }).id },
    });
    sessionId = ((await started.json()) as { session_id: string }).session_id;

    await page.goto(`/runs/${sessionId}`);
    await expect(page.getByRole('heading', { name: 'Waiting for you: Check the form' })).toBeVisible({
      timeout: 45_000,
    });
    await expect(page.getByText('Paused at step 2 of 3.')).toBeVisible();
    const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    await expect(steps).toHaveCount(3);
    await expect(steps.nth(1)).toContainText('pause');
    await expect(steps.nth(1)).toContainText('(paused here)');
    await expect(steps.nth(2)).toContainText('extract');
    await expect(steps.nth(2)).toContainText('(to come)');
    await expect(page.locator('.paused-run .bd-viewer[data-state="connected"] canvas')).toBeVisible({
      timeout: 30_000,
    });
    await expectAccessible(page);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await keepScreenshot(page, testInfo, `run-paused-${width}`);
    }

    // From the run to its session, and back.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('link', { name: sessionId }).click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));
    await expect(page.getByRole('heading', { name: `Run of “${name}”` })).toBeVisible();
    await expect(page.getByText('1 of 3 steps done')).toBeVisible();
    await expect(page.getByText(`Workflow: ${name}`)).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-of-run');
    await page.getByRole('link', { name: 'Open the run' }).click();
    await expect(page).toHaveURL(new RegExp(`/runs/${sessionId}$`));
    // Leaving a session page for another page works (it showed 'This page could not be shown').
    await expect(page.getByRole('heading', { level: 1, name: `Run: ${name}` })).toBeVisible();

    // Resumed: the pause step is done after "Resumed", in the log and on the timeline, in time order.
    await page.getByRole('button', { name: 'Resume the run' }).click();
    await expect(page.getByTestId('outcome')).toContainText('Succeeded', { timeout: 45_000 });
    const timeline = page.getByRole('list', { name: 'Timeline' }).getByRole('listitem');
    await expect(timeline.filter({ hasText: 'Step 3 (extract) done' })).toHaveCount(1);
    const entries = await timeline.allTextContents();
    const resumedAt = entries.findIndex((t) => t.includes('Resumed'));
    const pauseDoneAt = entries.findIndex((t) => t.includes('Step 2 (pause) done'));
    expect(resumedAt).toBeGreaterThanOrEqual(0);
    expect(pauseDoneAt).toBeGreaterThan(resumedAt);
    const seconds = entries.map((t) => {
      const [m, s] = t.trim().split(' ')[0]!.split(':').map(Number);
      return m! * 60 + s!;
    });
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    await keepScreenshot(page, testInfo, 'run-resumed-timeline');
  } finally {
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await site.close();
  }
});

test("a failed run's ended session says the run failed, and keeps its workflow after a reload", async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml(PAGE);
  const name = `e2e failing ${Date.now()}`;
  try {
    const workflowId = await createWorkflow(api, name, {
      title: 'Click what is not there',
      steps: [
        { type: 'navigate', url: `${site.origin}/form` },
        { type: 'click', selectors: [['#missing']], offsetX: 1, offsetY: 1, timeout: 1000 },
      ],
    });
    const sessionId = await runUntilSessionEnds(api, workflowId);

    await page.goto(`/sessions/${sessionId}`);
    await expect(page.getByText('ended · run failed')).toBeVisible();
    await expect(page.getByText('ended · completed')).toHaveCount(0);
    await expect(page.getByText('This session has ended (its run failed).')).toBeVisible();
    await page.reload();
    await expect(page.getByText(`Workflow: ${name}`)).toBeVisible();
    await expect(page.getByRole('heading', { name: `Run of “${name}”` })).toBeVisible();
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'session-of-failed-run');
  } finally {
    await site.close();
  }
});
