import { createWorkflow, expect, keepScreenshot, serveHtml, signIn, test } from './support/fixtures.ts';
import { expectNoAxeViolations } from './support/axeAll.ts';

// Issue 38, item 15: a run opened in a second tab said "Connecting…" for 6 s. That was its live
// view's status until noVNC's handshake with the session's x11vnc was through (slow on a busy
// host), after the view tokens, the viewer's chunk and noVNC's, one after the other. The page now
// says the run's state read over HTTP meanwhile.
test('a run opened in a second tab says its state while its live view connects, then shows it, at 1280 and 390 px', async ({
  authed: page,
  api,
  browser,
  baseURL,
}, testInfo) => {
  const site = await serveHtml('<!doctype html><title>Slow</title><h1>Working on it</h1>');
  const name = `e2e second tab ${Date.now()}`;
  let sessionId = '';
  const second = await browser.newContext({ baseURL });
  try {
    // Its second step is never true: the run is under way while the test watches (its session is ended at the end).
    const workflowId = await createWorkflow(api, name, {
      title: 'Wait a while',
      steps: [
        { type: 'navigate', url: `${site.origin}/slow` },
        { type: 'waitForExpression', expression: 'false', timeout: 600_000 },
      ],
    });
    const started = await api.post('/api/run_workflow', { data: { workflow_id: workflowId } });
    expect(started.status()).toBe(200);
    sessionId = ((await started.json()) as { session_id: string }).session_id;

    // The first tab watches it live.
    await page.goto(`/runs/${sessionId}`);
    await expect(page.locator('.bd-viewer[data-state="connected"]')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(/Running… 1 of 2 steps done\./)).toBeVisible({ timeout: 30_000 });

    const tab = await second.newPage();
    await signIn(tab);
    // Every text the live view's status line shows, from its first paint: on a fast host the
    // picture arrives within a second, so the words before it are caught as they are drawn.
    await tab.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { viewerTexts: seen });
      new MutationObserver(() => {
        const text = document.querySelector('.bd-viewer__status')?.textContent ?? '';
        if (text && text !== seen.at(-1)) seen.push(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    for (const width of [1280, 390]) {
      await tab.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await tab.goto(`/runs/${sessionId}`);
      await expect(tab.getByRole('heading', { level: 1, name: `Run: ${name}` })).toBeVisible();
      // Its data loaded: the run's state, from the server, while the picture is on its way.
      await expect(tab.getByRole('status').filter({ hasText: 'Running… 1 of 2 steps done.' })).toBeVisible();
      await expect(tab.locator('.bd-viewer[data-state="connected"] canvas')).toBeVisible({ timeout: 30_000 });
      // Until the picture came, the view said the run's state, never a bare "Connecting…".
      const texts = await tab.evaluate(() => (window as unknown as { viewerTexts: string[] }).viewerTexts);
      expect(texts[0]).toBe('Running, 1 of 2 steps done: opening the live view…');
      expect(texts).not.toContain('Connecting…');
      expect(texts.at(-1)).toBe('Connected');
      await expectNoAxeViolations(tab);
      await keepScreenshot(tab, testInfo, `run-second-tab-live-${width}`);
    }
  } finally {
    await second.close();
    if (sessionId) await api.delete(`/api/sessions/${sessionId}`);
    await site.close();
  }
});
