import http from 'node:http';
import type { Page } from '@playwright/test';
import { createWorkflow, expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';
import { listenOnLoopback } from '../test/fixtures/loopback.ts';

// Issue 38: a run's page says how its start goes (findings 3 and 10), and nothing stale or raw is
// shown after a run failed (findings 2 and 8).

/** A page that answers only when the test says so: the run's first page stays "opening" meanwhile. */
async function serveHeld(): Promise<{ origin: string; release(): void; close(): Promise<void> }> {
  const held: http.ServerResponse[] = [];
  let released = false;
  const answer = (res: http.ServerResponse) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Held</title><h1>Here at last</h1>');
  const server = http.createServer((_req, res) => (released ? answer(res) : held.push(res)));
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    release: () => {
      released = true;
      held.splice(0).forEach(answer);
    },
    // Drops the session browser's open connections: close() alone waited on one for a minute (CI).
    close,
  };
}

test('a run page shows its start phase by phase before step 1, then the steps, with a live log, at 1280 and 390 px', async ({
  authed: page,
  api,
}, testInfo) => {
  const name = `e2e start ${Date.now()}`;
  const sessions: string[] = [];
  for (const width of [1280, 390]) {
    const site = await serveHeld();
    try {
      const workflowId = await createWorkflow(api, `${name} ${width}`, {
        title: 'Slow first page',
        steps: [
          // Bounded by the step's own timeout, far beyond what the test holds the page for.
          { type: 'navigate', url: `${site.origin}/first`, timeout: 120_000 },
          { type: 'waitForExpression', expression: 'false', timeout: 600_000 },
        ],
      });
      const started = await api.post('/api/run_workflow', { data: { workflow_id: workflowId } });
      expect(started.status()).toBe(200);
      const sessionId = ((await started.json()) as { session_id: string }).session_id;
      sessions.push(sessionId);

      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto(`/runs/${sessionId}`);
      const start = page.getByTestId('run-start');
      // The browser started before the page opened; the first page is opening, its time counting.
      await expect(start.locator('li[data-phase="browser"][data-state="done"]')).toContainText('Browser started');
      const opening = start.locator('li[data-phase="first-page"][data-state="doing"]');
      await expect(opening).toContainText(`Opening ${site.origin}/first`);
      await expect(opening).toContainText(/\d+ s$/);
      await expect(start.getByRole('status')).toHaveText(`Opening ${site.origin}/first…`);
      await expect(page.getByText(/0 of 2 steps done/)).toHaveCount(0);
      // The live log, as on the session page, from the same events.
      const log = page.getByRole('region', { name: 'Live log' });
      await expect(log).toContainText('Run started: 2 steps');
      await expect(log).toContainText('Step 1 (navigate) started');
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `run-start-${width}`);

      // The page answers: the start is over, the steps take its place, and the log goes on.
      site.release();
      await expect(start).toHaveCount(0);
      await expect(page.getByRole('list', { name: 'Steps' })).toContainText('navigate');
      await expect(page.getByText('Running… 1 of 2 steps done.')).toBeVisible();
      await expect(log).toContainText(`Went to ${site.origin}/first`);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `run-started-${width}`);
    } finally {
      await site.close();
    }
  }
  for (const id of sessions) await api.delete(`/api/sessions/${id}`);
});

/** Before any script of the page: note whether anything live for a session was ever in the page. */
async function watchForLiveControls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { sawLive: string[] };
    w.sawLive = [];
    const look = () => {
      for (const b of document.querySelectorAll('button'))
        // The confirmation's own button waits in a closed dialog: only the page's counts.
        if (b.textContent?.trim() === 'End session' && !b.closest('dialog:not([open])')) w.sawLive.push('End session');
      if (document.querySelector('[data-testid="time-left"]')) w.sawLive.push('time left');
      if (document.body?.textContent?.includes('Connect with code')) w.sawLive.push('connect');
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
  });
}
const sawLive = (page: Page) => page.evaluate(() => (window as unknown as { sawLive: string[] }).sawLive);

test("a failed run's session never paints live controls, and its failed step says why once, linking to the editor at that step", async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml('<!doctype html><title>Empty</title><p>nothing to click</p>');
  try {
    const workflowId = await createWorkflow(api, `e2e fails ${Date.now()}`, {
      title: 'Fails at step 2',
      timeout: 1000,
      steps: [
        { type: 'navigate', url: site.origin },
        { type: 'click', selectors: [['#missing']], offsetX: 1, offsetY: 1 },
      ],
    });
    await watchForLiveControls(page);
    const started = await api.post('/api/run_workflow', { data: { workflow_id: workflowId } });
    const sessionId = ((await started.json()) as { session_id: string }).session_id;

    // Watched from its page (which reads the session while it is live), then its session opened
    // straight after it failed, in the same tab.
    await page.goto(`/runs/${sessionId}`);
    await expect(page.getByTestId('outcome')).toContainText('Failed at step 2 of 2.', { timeout: 45_000 });
    await page.getByRole('link', { name: sessionId }).click();
    await expect(page.getByText('This session has ended (its run failed).')).toBeVisible();
    expect(await sawLive(page)).toEqual([]);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      // A fresh load (the observer is in place before the first paint) of each page.
      await page.goto(`/sessions/${sessionId}`);
      await expect(page.getByText('This session has ended (its run failed).')).toBeVisible();
      const failure = page.getByTestId('step-failure');
      await expect(failure).toHaveCount(1);
      await expect(failure).toContainText('Step 2 (click #missing): no element matched within 1 s.');
      await expect(failure.getByRole('img', { name: 'The page when step 2 failed' })).toBeVisible();
      // The timeline ends with how the run ended, and nothing says the browser library's words.
      await expect(page.locator('.timeline li').last()).toHaveText(/Session ended: its run failed at step 2$/);
      await expect(page.getByText(/Timed out after waiting/)).toHaveCount(0);
      expect(await sawLive(page)).toEqual([]);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `session-run-failed-${width}`);

      await page.goto(`/runs/${sessionId}`);
      await expect(page.getByTestId('outcome')).toHaveText(/^Failed at step 2 of 2\./);
      await expect(page.getByTestId('step-failure')).toHaveCount(1);
      // Said once in the progress (the logs below keep the run's end as recorded).
      await expect(page.getByRole('region', { name: 'Progress' }).getByText(/no element matched/)).toHaveCount(1);
      await expect(page.getByText(/Timed out after waiting/)).toHaveCount(0);
      await expect(page.getByText('The page when step 2 failed.')).toBeVisible();
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `run-failed-${width}`);
    }

    // "the workflow editor" opens the editor at the failed step.
    const editor = page.getByTestId('step-failure').getByRole('link', { name: 'the workflow editor' });
    await expect(editor).toHaveAttribute('href', `/workflows/${workflowId}#step-2`);
    await editor.click();
    const step = page.locator('.flow-step[aria-current="step"]');
    await expect(step).toContainText('Step 2');
    await expect(step).toBeFocused();
    await expect(page.locator('.flow-step[aria-current]')).toHaveCount(1);
    await expectAccessible(page);
    await keepScreenshot(page, testInfo, 'editor-at-failed-step-390');
  } finally {
    await site.close();
  }
});
