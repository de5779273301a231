import { Flow } from '../../../contract/steps.ts';
import { humanFlowMessage, type FlowIssue } from './flow-messages.ts';
import { formatLineIssues, lineOfPath, parseFlowText } from './flow-text.ts';

/** Read a Chrome DevTools Recorder export; the text is kept unchanged so it round-trips. */
export async function readRecorderFile(
  file: File,
): Promise<{ ok: true; title: string; text: string } | { ok: false; message: string }> {
  const text = await file.text();
  const parsed = parseFlowText(text);
  if (parsed.syntax.length)
    return { ok: false, message: `${file.name} is not valid JSON.\n${formatLineIssues(parsed.syntax)}` };
  const flow = Flow.safeParse(parsed.value);
  if (!flow.success) {
    const lines = flow.error.issues.map((i) => ({
      line: lineOfPath(text, parsed.tree, i.path as (string | number)[]),
      message: humanFlowMessage(
        { ...(i as Omit<FlowIssue, 'path'>), path: i.path as (string | number)[] },
        parsed.value,
      ),
    }));
    return { ok: false, message: `${file.name} is not a Chrome Recorder flow.\n${formatLineIssues(lines)}` };
  }
  return { ok: true, title: flow.data.title, text };
}
