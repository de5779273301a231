import http from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { listenOnLoopback } from '../../test/fixtures/loopback.ts';

export const E2E_API_KEY = 'e2e_key_0123456789abcdef';

/** Put the key in the dashboard's settings before any page script runs. */
export async function signIn(page: Page, apiKey = E2E_API_KEY): Promise<void> {
  await page.addInitScript((key) => {
    localStorage.setItem('browserdesk.settings', JSON.stringify({ baseUrl: `${location.origin}/api`, apiKey: key }));
  }, apiKey);
}

/** Keep a screenshot of the page as a test artifact (in test-results). */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** A page the test serves on loopback, whatever the path: its origin and a close. */
export async function serveHtml(html: string): Promise<{ origin: string; close(): Promise<void> }> {
  return listenOnLoopback(
    http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html)),
  );
}

/** axe finds no serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

export const test = base.extend<{ api: APIRequestContext; authed: Page }>({
  api: async ({ playwright, baseURL }, use) => {
    const ctx = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'x-api-key': E2E_API_KEY } });
    await use(ctx);
    await ctx.dispose();
  },
  authed: async ({ page }, use) => {
    await signIn(page);
    await use(page);
  },
});
export { expect };

/** A `shot(page, testInfo, name)` that keeps the screenshot (keepScreenshot) and, when `copyPath(name)` gives a path, writes a copy there too. */
export const shotsCopiedTo =
  (copyPath: (name: string) => string | undefined) =>
  async (page: Page, testInfo: TestInfo, name: string): Promise<void> => {
    await keepScreenshot(page, testInfo, name);
    const path = copyPath(name);
    if (path) await page.screenshot({ path, fullPage: true });
  };

/** Save a workflow through the API (expects 201); its id. */
export async function createWorkflow(api: APIRequestContext, name: string, flow: unknown): Promise<string> {
  const created = await api.post('/api/workflows', { data: { name, flow, variables: [] } });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Start a run of the workflow through the API and wait (up to 45 s) for its session to end; the session's id. */
export async function runUntilSessionEnds(api: APIRequestContext, workflowId: string): Promise<string> {
  const started = await api.post('/api/run_workflow', { data: { workflow_id: workflowId } });
  const sessionId = ((await started.json()) as { session_id: string }).session_id;
  await expect
    .poll(async () => ((await (await api.get(`/api/sessions/${sessionId}`)).json()) as { state: string }).state, {
      timeout: 45_000,
    })
    .toBe('ended');
  return sessionId;
}
