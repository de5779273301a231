import type { Locator } from 'playwright-core';
import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { pageLine } from './navigation.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

/** How long an action waits for its element to be there, visible and not covered. */
const ACTION_TIMEOUT_MS = 5_000;

const quoted = (element: string) => JSON.stringify(element.slice(0, 100));

/**
 * Run an action on the element a ref names. A timeout means the element is not there as the
 * snapshot saw it (gone, hidden, covered): the agent is told to look again.
 */
async function onElement(kit: ToolKit, sessionId: string, ref: string, element: string, act: (target: Locator) => Promise<void>): Promise<string> {
  const page = await kit.browsers.page(sessionId);
  const pwRef = kit.snapshots.resolve(sessionId, ref);
  try {
    await act(page.locator(`aria-ref=${pwRef}`));
  } catch (err) {
    const line = (err as Error).message.split('\n')[0]!;
    if (/Timeout \d+ms exceeded/.test(line)) {
      throw new ToolError(`${quoted(element)} (${ref}) could not be used within ${ACTION_TIMEOUT_MS / 1000} s: it is gone, hidden or covered now. Take a new snapshot`);
    }
    throw new ToolError(`${quoted(element)} (${ref}): ${line}`);
  }
  // A click can start a navigation: its refs are then of a page that is going.
  await page.waitForLoadState('load', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
  return pageLine(page);
}

/** browser_click, browser_type, browser_press_key. */
export function inputTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_click',
      description: 'Click an element by its ref from the latest browser_snapshot. `element` says what it is in words, for the session log.',
      input: agentToolInputs.browser_click,
      async run({ session_id, element, ref }) {
        const where = await onElement(kit, session_id, ref, element, (t) => t.click({ timeout: ACTION_TIMEOUT_MS }));
        return { content: [{ type: 'text', text: `Clicked ${quoted(element)}. ${where}` }], summary: `Clicked ${quoted(element)} (${ref})` };
      },
    }),
    defineTool({
      name: 'browser_type',
      description: 'Type text into an editable element (it replaces what the field held) by its ref from the latest browser_snapshot; with submit, press Enter after.',
      input: agentToolInputs.browser_type,
      async run({ session_id, element, ref, text, submit }) {
        const where = await onElement(kit, session_id, ref, element, async (t) => {
          await t.fill(text, { timeout: ACTION_TIMEOUT_MS });
          if (submit) await t.press('Enter', { timeout: ACTION_TIMEOUT_MS });
        });
        // The text itself stays out of the log and the answer: it can be a password.
        const what = `Typed ${text.length} characters into ${quoted(element)}${submit ? ' and pressed Enter' : ''}`;
        return { content: [{ type: 'text', text: `${what}. ${where}` }], summary: `${what} (${ref})` };
      },
    }),
    defineTool({
      name: 'browser_press_key',
      description: 'Press a key (Enter, Escape, ArrowDown, Tab, a, or a combination such as Control+a) in the page, where the focus is.',
      input: agentToolInputs.browser_press_key,
      async run({ session_id, key }) {
        const page = await kit.browsers.page(session_id);
        try {
          await page.keyboard.press(key);
        } catch (err) {
          throw new ToolError(`Key ${JSON.stringify(key)} could not be pressed: ${(err as Error).message.split('\n')[0]}`);
        }
        await page.waitForLoadState('load', { timeout: ACTION_TIMEOUT_MS }).catch(() => undefined);
        return { content: [{ type: 'text', text: `Pressed ${key}. ${await pageLine(page)}` }], summary: `Pressed ${key}` };
      },
    }),
  ];
}
