import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { pageLine } from './navigation.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

const DEFAULT_WAIT_S = 10;

/** browser_wait_for: for text to show or go, or for a time. */
export function waitingTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_wait_for',
      description:
        'Wait until a text shows on the page (text), is gone from it (textGone, or text_gone), or for a number of seconds (time alone; with text, the longest to wait, default 10).',
      input: agentToolInputs.browser_wait_for,
      async run({ session_id, text, text_gone: textGoneOld, textGone, time }) {
        const text_gone = textGone ?? textGoneOld;
        const page = await kit.browsers.page(session_id);
        if (text === undefined && text_gone === undefined) {
          await new Promise((r) => setTimeout(r, (time ?? 0) * 1000));
          return {
            content: [{ type: 'text', text: `Waited ${time} s. ${await pageLine(page)}` }],
            summary: `Waited ${time} s`,
          };
        }
        const timeout = (time ?? DEFAULT_WAIT_S) * 1000;
        try {
          if (text !== undefined) await page.getByText(text).first().waitFor({ state: 'visible', timeout });
          if (text_gone !== undefined) await page.getByText(text_gone).first().waitFor({ state: 'hidden', timeout });
        } catch {
          throw new ToolError(
            `Waited ${timeout / 1000} s: ${text !== undefined ? `${JSON.stringify(text.slice(0, 100))} did not show` : `${JSON.stringify(text_gone!.slice(0, 100))} is still there`}. ${await pageLine(page)}`,
          );
        }
        const what =
          text !== undefined
            ? `${JSON.stringify(text.slice(0, 100))} shows`
            : `${JSON.stringify(text_gone!.slice(0, 100))} is gone`;
        return {
          content: [{ type: 'text', text: `${what}. ${await pageLine(page)}` }],
          summary: `Waited until ${what}`,
        };
      },
    }),
  ];
}
