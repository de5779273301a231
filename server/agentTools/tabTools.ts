import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { pageLine } from './navigation.ts';
import { defineTool, type AgentTool } from './registry.ts';
import { describeDialog, DIALOG_FALLBACK_MS, type SessionTabs } from './tabs.ts';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/[\r\n\]]+/g, ' ');

/** The tabs as playwright-mcp lists them: `- 0: (current) [Title](https://…)`. */
async function tabList(tabs: SessionTabs): Promise<string> {
  const lines = (await tabs.list()).map(
    (t) => `- ${t.index}: ${t.selected ? '(current) ' : ''}[${clip(t.title, 200)}](${clip(t.url, 500)})`,
  );
  return `### Open tabs\n${lines.join('\n')}`;
}

/** browser_tabs, browser_close, browser_handle_dialog. */
export function tabTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_tabs',
      description:
        'List, open, select or close the tabs of the session (popups and target=_blank links open tabs; a tab that opens is selected). The selected tab is the one every other browser tool acts on. Selecting another tab makes earlier refs stale: take a snapshot.',
      input: agentToolInputs.browser_tabs,
      async run({ session_id, action, index }) {
        const tabs = await kit.browsers.tabs(session_id);
        let did = 'Tabs';
        if (action === 'new') {
          await tabs.open();
          did = 'Opened a new tab';
        } else if (action === 'select') {
          tabs.selectIndex(index!);
          did = `Selected tab ${index}`;
        } else if (action === 'close') {
          await tabs.close(index);
          did = `Closed tab ${index ?? '(the selected one)'}`;
        }
        return { content: [{ type: 'text', text: `${did}.\n${await tabList(tabs)}` }], summary: did };
      },
    }),
    defineTool({
      name: 'browser_close',
      description:
        'Close the selected tab. The session goes on: another tab is selected, or a blank one opens when it was the last.',
      input: agentToolInputs.browser_close,
      async run({ session_id }) {
        const tabs = await kit.browsers.tabs(session_id);
        await tabs.close();
        return {
          content: [{ type: 'text', text: `Closed the tab.\n${await tabList(tabs)}` }],
          summary: 'Closed the selected tab',
        };
      },
    }),
    defineTool({
      name: 'browser_handle_dialog',
      description: `Answer the dialog (alert, confirm, prompt, beforeunload) a page opened: accept (OK) or not (Cancel), with promptText for a prompt. While a dialog is open the other browser tools refuse to act; one left unanswered for ${DIALOG_FALLBACK_MS / 1000} s is accepted as runs do.`,
      input: agentToolInputs.browser_handle_dialog,
      async run({ session_id, accept, promptText }) {
        const tabs = await kit.browsers.tabs(session_id);
        const answered = await tabs.answer(accept, promptText);
        const did = `${accept ? 'Accepted' : 'Dismissed'} ${describeDialog(answered).replace(/^An? /, 'the ')}`;
        const page = await tabs.current();
        await page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
        return { content: [{ type: 'text', text: `${did}. ${await pageLine(page)}` }], summary: did };
      },
    }),
  ];
}
