import { randomUUID } from 'node:crypto';
import { expect, expectAccessible, keepScreenshot, serveHtml, test } from './support/fixtures.ts';
import { expectScreenFirstWide, expectScreenUnderTitle } from './support/liveScreen.ts';

// A run this tab did not start (through the API, as an SDK does) is watched live from its page
// alone: the page asks the server for the run, its workflow's name and view tokens.
const SLOW_PAGE = `<!doctype html><title>Slow</title><h1 style="font-size:64px">Working on it</h1>`;

test('a run started through the API is watched live when its page is opened directly, at 1280 and 390 px', async ({
  authed: page,
  api,
}, testInfo) => {
  const site = await serveHtml(SLOW_PAGE);
  const name = `e2e watch ${Date.now()}`;
  let sessionId = '';
  try {
    const created = await api.post('/api/workflows', {
      data: {
        name,
        flow: {
          title: 'Wait a while',
          steps: [
            { type: 'navigate', url: `${site.origin}/slow` },
            // Never true: the run is under way for as long as the test watches it, however slow the host
            // (its session is ended at the end).
            { type: 'waitForExpression', expression: 'false', timeout: 600_000 },
          ],
        },
        variables: [],
      },
    });
    expect(created.status()).toBe(201);
    const workflow = (await created.json()) as { id: string };
    const started = await api.post('/api/run_workflow', { data: { workflow_id: workflow.id } });
    expect(started.status()).toBe(200);
    sessionId = ((await started.json()) as { session_id: string }).session_id;

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      // A fresh load each time: nothing of the run is in this tab's memory.
      await page.goto(`/runs/${sessionId}`);
      await expect(page.getByRole('heading', { level: 1, name: `Run: ${name}` })).toBeVisible();
      await expect(page.locator('.bd-viewer[data-state="connected"] canvas')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText(/not available here/)).toHaveCount(0);
      await expect(page.getByRole('link', { name })).toHaveAttribute('href', `/workflows/${workflow.id}`);
      // The live browser first: wide from the top at 1280×800, right under the title on a phone.
      const screen = width === 390 ? await expectScreenUnderTitle(page) : await expectScreenFirstWide(page);
      testInfo.annotations.push({ type: `screen at ${width}`, description: JSON.stringify(screen) });
      await page.waitForTimeout(1000);
      await expectAccessible(page);
      await keepScreenshot(page, testInfo, `run-watch-${width}`);
    }
  } finally {
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await site.close();
  }
});

test('an unknown run id says there is no such run, not that the server cannot report progress', async ({
  authed: page,
}, testInfo) => {
  for (const id of [randomUUID(), 'not-a-run']) {
    await page.goto(`/runs/${id}`);
    await expect(page.getByRole('alert')).toContainText('There is no run with this id on this server');
    await expect(page.getByText(/does not report run progress/)).toHaveCount(0);
  }
  await expectAccessible(page);
  await keepScreenshot(page, testInfo, 'run-unknown');
});
