import { agentToolInputs, SNAPSHOT_MAX_TOKENS_DEFAULT } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';
import type { Snapshot, SnapshotScope } from './snapshots.ts';
import { countTokens, pageOfLines } from './tokenBudget.ts';

const clipLine = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/[\r\n]+/g, ' ');

/**
 * The answer around a part of a snapshot: where the page is, which lines these are, and how to ask
 * for the next part. Built twice: once with the widest numbers to size the budget the lines get,
 * once with the real ones.
 */
function frame(s: Snapshot, sessionId: string, from: number, to: number, body: string): string {
  const more =
    to < s.lines.length
      ? `\n\nThe snapshot goes on: call browser_snapshot with {"session_id":"${sessionId}","cursor":"${s.tag}:${to}"} for lines ${to + 1} on.`
      : '';
  return `Page URL: ${clipLine(s.url, 500)}\nPage title: ${clipLine(s.title, 200)}\nSnapshot ${s.tag}${s.scope ? ` (${s.scope})` : ''}, lines ${from + 1}-${to} of ${s.lines.length}:\n\`\`\`yaml\n${body}\n\`\`\`${more}`;
}

/**
 * A new snapshot of the session's page as the agent reads it: its first part within `budget`
 * tokens, or the part a cursor continues (which is of the snapshot the cursor names, so `scope`
 * is not asked for again). Actions with `snapshot: true` answer with the whole page's.
 */
export async function snapshotText(
  kit: ToolKit,
  sessionId: string,
  budget = SNAPSHOT_MAX_TOKENS_DEFAULT,
  cursor?: string,
  scope: SnapshotScope = {},
): Promise<{ text: string; summary: string }> {
  let snapshot: Snapshot;
  let from = 0;
  if (cursor) {
    await kit.browsers.browser(sessionId);
    ({ snapshot, from } = kit.snapshots.continued(sessionId, cursor));
  } else {
    snapshot = await kit.snapshots.take(sessionId, await kit.browsers.page(sessionId), scope);
  }
  const widest = snapshot.lines.length;
  const overhead = countTokens(frame(snapshot, sessionId, widest, widest - 1, ''));
  const part = await pageOfLines(snapshot.lines, from, Math.max(budget - overhead, 50));
  return {
    text: frame(snapshot, sessionId, part.from, part.to, part.text),
    summary: `Snapshot ${snapshot.tag}: lines ${part.from + 1}-${part.to} of ${snapshot.lines.length}`,
  };
}

/** browser_snapshot: the page as an ARIA snapshot with refs, cut to a token budget with a cursor to the rest. */
export function snapshotTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_snapshot',
      description:
        'The page as an accessibility snapshot in YAML (roles, names, values; iframes included), each element an agent can act on with a ref like [ref=k3f9ab-e5] for browser_click and browser_type. Refs belong to this snapshot only. A long page is cut to max_tokens; the answer then ends with a cursor that gives the next part of the same snapshot. To read less: selector (CSS) takes only the first element it matches, and interactive_only keeps only what can be acted on (links, buttons, fields, checkboxes, options…) with the headings around it, and depth keeps only the top levels of the tree.',
      input: agentToolInputs.browser_snapshot,
      async run({ session_id, max_tokens, cursor, selector, interactive_only, depth }) {
        if (cursor && (selector !== undefined || interactive_only !== undefined || depth !== undefined))
          throw new ToolError(
            'cursor continues the snapshot it came from, with its selector, interactive_only and depth: send cursor alone, or take a new snapshot without cursor',
          );
        const { text, summary } = await snapshotText(kit, session_id, max_tokens, cursor, {
          ...(selector !== undefined ? { selector } : {}),
          ...(interactive_only ? { interactiveOnly: true } : {}),
          ...(depth !== undefined ? { depth } : {}),
        });
        return { content: [{ type: 'text', text }], summary };
      },
    }),
  ];
}
