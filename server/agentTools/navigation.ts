import type { Page } from 'playwright-core';
import { agentToolInputs } from '../../contract/agentTools.ts';
import { explainCause } from '../runs/engine/stepCauses.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

const NAVIGATION_TIMEOUT_MS = 30_000;

/** Where the page is now, in one line an agent reads. */
export const pageLine = async (page: Page) =>
  `Page: ${page.url()} "${(await page.title().catch(() => '')).slice(0, 200)}"`;

/**
 * Load `url` in the session's page. A failure says which way it failed as a run's navigate step
 * would (DNS, refused, timeout, TLS, or refused by the egress policy, naming
 * BROWSER_ALLOW_PRIVATE_NETWORKS): the reasons are the runs' own (runs/engine/stepCauses.ts).
 */
export async function goTo(kit: ToolKit, sessionId: string, url: string): Promise<{ url: string; page: Page }> {
  const page = await kit.browsers.page(sessionId);
  kit.snapshots.forget(sessionId);
  try {
    await page.goto(url, { timeout: NAVIGATION_TIMEOUT_MS, waitUntil: 'load' });
  } catch (err) {
    const line = (err as Error).message.split('\n')[0]!;
    const cause = await explainCause(line, {
      navigatedTo: url,
      stopped: null,
      privateNetworksAllowed: kit.deps.privateNetworksAllowed,
      dialogs: [],
    });
    throw new ToolError(`${url} did not load: ${cause}`);
  }
  return { url: page.url(), page };
}

/** browser_navigate, browser_back and its playwright-mcp name browser_navigate_back. */
export function navigationTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_navigate',
      description:
        "Open a URL (http or https) in the session's page and wait for it to load. Refs of earlier snapshots stop working: take a new snapshot.",
      input: agentToolInputs.browser_navigate,
      async run({ session_id, url }) {
        const { page } = await goTo(kit, session_id, url);
        return {
          content: [{ type: 'text', text: await pageLine(page) }],
          summary: `Went to ${page.url().slice(0, 300)}`,
        };
      },
    }),
    ...(['browser_back', 'browser_navigate_back'] as const).map((name) =>
      defineTool({
        name,
        description: `Go back to the previous page in the session's history (${name === 'browser_back' ? 'browser_navigate_back, as playwright-mcp names it, is the same' : 'browser_back is the same'}).`,
        input: agentToolInputs[name],
        async run({ session_id }) {
          const page = await kit.browsers.page(session_id);
          kit.snapshots.forget(session_id);
          // Until the history entry commits only: a page restored from the back-forward cache fires no
          // new load, which Playwright's default wait would sit out to its timeout.
          const response = await page
            .goBack({ timeout: NAVIGATION_TIMEOUT_MS, waitUntil: 'commit' })
            .catch((err: Error) => {
              throw new ToolError(`Going back failed: ${err.message.split('\n')[0]}`);
            });
          await page.waitForLoadState('domcontentloaded', { timeout: 5_000 }).catch(() => undefined);
          const where = await pageLine(page);
          return {
            content: [
              {
                type: 'text',
                text: response === null && page.url() === 'about:blank' ? `Nothing to go back to. ${where}` : where,
              },
            ],
            summary: `Went back to ${page.url().slice(0, 300)}`,
          };
        },
      }),
    ),
  ];
}
