import { chromium, type Browser } from 'playwright-core';
import { expect } from 'vitest';
import { CreateWorkflowSessionResponse } from '../../contract/sessions.ts';
import { postJson, type TestServer } from './server.ts';

/**
 * A new session's browser opens each URL in turn: the page's title, or null when it could not load (the
 * egress tests). A refused address fails at once (the filter rejects it); one that loads has a loaded
 * host's time to do so.
 */
export async function titlesFromSession(server: TestServer, urls: string[]): Promise<(string | null)[]> {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'egress' });
  expect(res.status).toBe(200);
  const s = CreateWorkflowSessionResponse.parse(await res.json());
  let browser: Browser | undefined;
  try {
    browser = await chromium.connectOverCDP(s.connect_url!);
    const p = browser.contexts()[0]!.pages()[0]!;
    const out: (string | null)[] = [];
    for (const url of urls)
      out.push(
        await p.goto(url, { timeout: 30_000 }).then(
          () => p.title(),
          () => null,
        ),
      );
    return out;
  } finally {
    await browser?.close();
  }
}
