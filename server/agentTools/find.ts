import vm from 'node:vm';
import { agentToolInputs } from '../../contract/agentTools.ts';
import type { ToolKit } from './kit.ts';
import { defineTool, ToolError, type AgentTool } from './registry.ts';

/** Lines an answer lists, and how long each may be: a find is a pointer into the snapshot, not the snapshot again. */
const FIND_MAX_LINES = 50;
const FIND_LINE_MAX = 300;
/** How long a caller's regex may run over the snapshot: a catastrophic one is stopped, not left to hold the server. */
const REGEX_TIMEOUT_MS = 500;

/** Indexes of the lines the regex matches, at most `max`, run in a vm whose timeout stops a runaway regex. */
function regexMatches(lines: string[], pattern: string, max: number): number[] {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'i');
  } catch (err) {
    throw new ToolError(`regex ${JSON.stringify(pattern.slice(0, 100))} is not valid: ${(err as Error).message}`);
  }
  try {
    return vm.runInNewContext(
      'const out = []; for (let i = 0; i < lines.length && out.length < max; i++) if (re.test(lines[i])) out.push(i); out',
      { lines, re, max },
      { timeout: REGEX_TIMEOUT_MS },
    ) as number[];
  } catch {
    throw new ToolError(
      `regex ${JSON.stringify(pattern.slice(0, 100))} took over ${REGEX_TIMEOUT_MS} ms on the snapshot and was stopped: simplify it`,
    );
  }
}

/** browser_find: the lines of the session's latest snapshot that hold a text or match a regex, with their refs. */
export function findTools(kit: ToolKit): AgentTool[] {
  return [
    defineTool({
      name: 'browser_find',
      description: `Find a text (any case) or a regular expression in the session's latest browser_snapshot (a new snapshot is taken when there is none) and answer the matching lines, refs included, at most ${FIND_MAX_LINES}: to locate an element on a long page without reading all of it.`,
      input: agentToolInputs.browser_find,
      async run({ session_id, text, regex }) {
        const page = await kit.browsers.page(session_id);
        const snapshot = kit.snapshots.latestOf(session_id) ?? (await kit.snapshots.take(session_id, page));
        const needle = text?.toLowerCase();
        const found =
          needle !== undefined
            ? snapshot.lines
                .flatMap((l, i) => (l.toLowerCase().includes(needle) ? [i] : []))
                .slice(0, FIND_MAX_LINES + 1)
            : regexMatches(snapshot.lines, regex!, FIND_MAX_LINES + 1);
        const what = text !== undefined ? JSON.stringify(text.slice(0, 100)) : `/${regex!.slice(0, 100)}/i`;
        const shown = found.slice(0, FIND_MAX_LINES).map((i) => {
          const line = snapshot.lines[i]!.trim();
          return `${i + 1}: ${line.length > FIND_LINE_MAX ? `${line.slice(0, FIND_LINE_MAX - 1)}…` : line}`;
        });
        const head = `Snapshot ${snapshot.tag} of ${snapshot.url.slice(0, 500)}: ${found.length === 0 ? 'no line' : found.length > FIND_MAX_LINES ? `more than ${FIND_MAX_LINES} lines (the first ${FIND_MAX_LINES} here)` : `${found.length} line${found.length === 1 ? '' : 's'}`} of ${snapshot.lines.length} match ${what}`;
        return {
          content: [{ type: 'text', text: shown.length ? `${head}:\n${shown.join('\n')}` : head }],
          summary: `Found ${found.length > FIND_MAX_LINES ? `over ${FIND_MAX_LINES}` : found.length} line${found.length === 1 ? '' : 's'} matching ${what}`,
        };
      },
    }),
  ];
}
