import type { ToolKit } from './kit.ts';
import { ToolError, type AgentTool, type ToolOutcome } from './registry.ts';
import { describeDialog, type OpenDialog } from './tabs.ts';

/** The only browser tool that works while a dialog is open: the one that answers it. */
const ANSWERS_DIALOGS = 'browser_handle_dialog';

/**
 * Wrap the browser tools (`browser_*`) with what tabs and dialogs need of every call, in one place:
 * - a dialog blocks its page, so a call made while one is open is refused at once, naming it,
 *   instead of hanging on a page that cannot answer (as playwright-mcp does);
 * - a dialog that opens while a call runs (a click that alerts) ends the call's answer at once,
 *   saying so; the call's own work goes on in the browser and finishes once the dialog is answered;
 * - what happened since the last answer (a tab opened and was selected, a dialog answered for want
 *   of an answer) is said at the end of the answer.
 * Other tools (sessions, workflows, downloads) pass unchanged: they do not touch a page.
 */
export function withTabsAndDialogs(kit: ToolKit, tools: AgentTool[]): AgentTool[] {
  return tools.map((tool) => (tool.name.startsWith('browser_') ? gated(kit, tool) : tool));
}

function gated(kit: ToolKit, tool: AgentTool): AgentTool {
  return {
    ...tool,
    async run(input, signal): Promise<ToolOutcome> {
      const sessionId = (input as { session_id: string }).session_id;
      const tabs = await kit.browsers.tabs(sessionId);
      const open = tabs.dialog();
      if (open && tool.name !== ANSWERS_DIALOGS)
        throw new ToolError(
          `${describeDialog(open)} is open and blocks the page: answer it with browser_handle_dialog first (accept true or false)`,
        );
      const acting = await tabs.current();
      let stopWaiting = () => {};
      const dialogOpened = new Promise<OpenDialog>((resolve) => {
        stopWaiting = tabs.onDialog(resolve);
      });
      const running = tool.run(input, signal).catch((err: unknown) => {
        // A popup's "Authorize" that closes its own window: the action did what it was asked.
        if (!acting.isClosed() || !/has been closed/.test(err instanceof Error ? err.message : String(err))) throw err;
        return {
          content: [{ type: 'text', text: `${tool.name}: done; the tab closed as it acted.` }],
          summary: `${tool.name}: the tab closed as it acted`,
        } satisfies ToolOutcome;
      });
      try {
        const first = await Promise.race([running.then((outcome) => ({ outcome })), dialogOpened.then((d) => ({ d }))]);
        if ('d' in first) {
          running.catch(() => undefined);
          return {
            content: [
              {
                type: 'text',
                text: `${describeDialog(first.d)} opened while ${tool.name} ran and waits for an answer: call browser_handle_dialog (accept true or false) before anything else.`,
              },
            ],
            summary: `${tool.name}: ${describeDialog(first.d)} opened`,
          };
        }
        const notices = tabs.takeNotices();
        if (!notices.length) return first.outcome;
        return { ...first.outcome, content: [...first.outcome.content, { type: 'text', text: notices.join('\n') }] };
      } finally {
        stopWaiting();
      }
    },
  };
}
