import { flowTextOf } from './workflow-form.ts';

/**
 * The server keeps a flow's keys in the order written but not its spaces and line breaks, so a
 * saved flow would come back as two-space JSON. This browser remembers the text it last saved for
 * each workflow, and shows it again as long as it still says the same as the stored flow (nobody
 * changed the workflow elsewhere since); otherwise the stored flow, laid out as Recorder does.
 */
const KEY = 'browserdesk.flowLayouts';
const MAX_KEPT = 50;

type Kept = Record<string, string>;

function read(): Kept {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Kept) : {};
  } catch {
    return {};
  }
}

/** Same JSON (keys in the same order, as the server keeps them), whatever the layout. */
function sameFlow(text: string, flow: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(flow);
  } catch {
    return false;
  }
}

export function rememberFlowText(id: string, text: string): void {
  try {
    const kept = read();
    delete kept[id];
    kept[id] = text; // newest last
    const ids = Object.keys(kept);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_KEPT))) delete kept[old];
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or off: the flow shows in the Recorder's layout, nothing is lost.
  }
}

/** The flow's text: as this browser last saved it when that still matches, else the Recorder's layout. */
export function flowTextFor(id: string, flow: unknown): string {
  const text = read()[id];
  return text !== undefined && sameFlow(text, flow) ? text : flowTextOf(flow);
}
