import { createWorkflow, expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';

// Issue 26, item 5: in the Sessions list a failed run's session says "run failed", not "completed".
test("a failed run's session is listed as run failed", async ({ authed: page, api }, testInfo) => {
  const site = await serveHtml('<!doctype html><title>Empty</title><p>nothing to click</p>');
  const name = `e2e failing ${Date.now()}`;
  try {
    const workflowId = await createWorkflow(api, name, {
      title: 'Fails',
      timeout: 1000,
      steps: [
        { type: 'navigate', url: site.origin },
        { type: 'click', selectors: [['#missing']], offsetX: 1, offsetY: 1 },
      ],
    });
    const run = await api.post('/api/run_workflow', { form: { workflow_id: workflowId } });
    const { session_id: sessionId } = (await run.json()) as { session_id: string };
    await expect
      .poll(
        async () =>
          ((await (await api.get(`/api/sessions/${sessionId}`)).json()) as { run: { status: string } | null }).run
            ?.status,
        { timeout: 45_000 },
      )
      .toBe('failed');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/sessions?q=${encodeURIComponent(name)}`);
      const row = page.locator(`tr[data-session-id="${sessionId}"]`);
      await expect(row).toBeVisible();
      await expect(row.locator('td[data-label="End reason"]')).toHaveText('run failed');
      await expect(row.locator('td[data-label="State"] .badge')).toHaveClass(/failed/);
      await expect(row).not.toContainText('completed');
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `sessions-run-failed-${width}`);
    }
  } finally {
    await site.close();
  }
});
