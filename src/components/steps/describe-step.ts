import { ACT_DEFAULT_STEPS, DEFAULT_EXTRACT_AS } from '../../../contract/steps.ts';

/**
 * A flow's steps in words, as the workflow editor lists them and the agent page shows the steps it
 * recorded, with the values the editor lets one change in place.
 */

export type JsonPath = (string | number)[];

/** A value the step list lets one edit in place: where it is in the flow, and its text. */
export interface StepField {
  /** Names the input: "URL", "Value", "File name", "Message", "Key", "Output name", "Instruction". */
  label: string;
  /** From the flow's root: ['steps', 2, 'value']. */
  path: JsonPath;
  value: string;
}

export interface StepView {
  index: number;
  /** The step's type as written (customStep's name for custom steps): a CSS hook and a test handle. */
  kind: string;
  /** What the step does, in words, without its selector: 'Type “{{name}}” into'. */
  words: string;
  /** The step's first selector (a chain joined with ›), when it has one. */
  selector?: string;
  /** How many other selectors the step would try if the first one finds nothing. */
  otherSelectors: number;
  /** The first selector as an input, when it is one selector (not a chain through shadow roots or frames). */
  selectorField?: StepField;
  fields: StepField[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const quoted = (s: string) => `“${s}”`;

/** A selector as a person reads it: the first alternative, a chain (shadow DOM, frames) joined by ›. */
function selectorOf(selectors: unknown): { selector?: string; otherSelectors: number } {
  if (!Array.isArray(selectors) || selectors.length === 0) return { otherSelectors: 0 };
  const first: unknown = selectors[0];
  const parts = Array.isArray(first)
    ? first.filter((p): p is string => typeof p === 'string')
    : typeof first === 'string'
      ? [first]
      : [];
  return parts.length
    ? { selector: parts.join(' › '), otherSelectors: selectors.length - 1 }
    : { otherSelectors: selectors.length - 1 };
}

/** The first alternative of `selectors` (at `path`) as an editable field, when it is a single selector. */
function selectorFieldOf(selectors: unknown, path: JsonPath): StepField | undefined {
  if (!Array.isArray(selectors)) return undefined;
  const first: unknown = selectors[0];
  if (typeof first === 'string') return { label: 'Selector', path: [...path, 0], value: first };
  if (Array.isArray(first) && first.length === 1 && typeof first[0] === 'string')
    return { label: 'Selector', path: [...path, 0, 0], value: first[0] };
  return undefined;
}

const field = (label: string, path: JsonPath, value: unknown): StepField[] =>
  typeof value === 'string' ? [{ label, path, value }] : [];

/** One step in words. A step the schema would refuse still gets a line, so the list never hides a step. */
export function describeStep(step: unknown, index: number): StepView {
  const at: JsonPath = ['steps', index];
  if (!isObj(step))
    return { index, kind: 'unknown', words: 'Not a step (not a JSON object)', otherSelectors: 0, fields: [] };
  const type = str(step.type) ?? '';
  const target = selectorOf(step.selectors);
  const selectorField = selectorFieldOf(step.selectors, [...at, 'selectors']);
  const view = (words: string, fields: StepField[] = [], sel = target): StepView => ({
    index,
    kind: type || 'unknown',
    words,
    ...sel,
    ...(selectorField ? { selectorField } : {}),
    fields,
  });
  switch (type) {
    case 'navigate':
      return view(`Go to ${str(step.url) || '(no address yet)'}`, field('URL', [...at, 'url'], step.url));
    case 'click':
      return view('Click');
    case 'doubleClick':
      return view('Double-click');
    case 'hover':
      return view('Hover over');
    case 'change':
      return view(`Type ${quoted(str(step.value) ?? '')} into`, field('Value', [...at, 'value'], step.value));
    case 'keyDown':
      return view(`Press the ${str(step.key) ?? '?'} key`, field('Key', [...at, 'key'], step.key));
    case 'keyUp':
      return view(`Release the ${str(step.key) ?? '?'} key`, field('Key', [...at, 'key'], step.key));
    case 'setViewport':
      return view(`Set the window to ${String(step.width)} × ${String(step.height)} px`);
    case 'scroll': {
      const where =
        typeof step.x === 'number' || typeof step.y === 'number'
          ? ` to ${String(step.x ?? 0)}, ${String(step.y ?? 0)}`
          : '';
      return view(target.selector ? `Scroll${where} in` : `Scroll the page${where}`);
    }
    case 'waitForElement': {
      const count = typeof step.count === 'number' ? ` (${str(step.operator) ?? '>='} ${step.count})` : '';
      return view(`Wait for${count}`);
    }
    case 'waitForExpression':
      return view(`Wait until ${str(step.expression) ?? '?'} is true`);
    case 'close':
      return view('Close the page');
    case 'emulateNetworkConditions':
      return view('Slow the network down');
    case 'customStep': {
      const params = isObj(step.parameters) ? step.parameters : {};
      const p: JsonPath = [...at, 'parameters'];
      const inner = selectorOf(params.selectors);
      const innerField = selectorFieldOf(params.selectors, [...p, 'selectors']);
      const name = str(step.name) ?? '';
      const custom = (words: string, fields: StepField[] = [], sel = inner): StepView => ({
        index,
        kind: name || 'customStep',
        words,
        ...sel,
        ...(innerField ? { selectorField: innerField } : {}),
        fields,
      });
      if (name === 'uploadFile')
        return custom(
          `Upload file ${str(params.file) || '(no file name yet)'} into`,
          field('File name', [...p, 'file'], params.file),
        );
      if (name === 'extract' && params.instruction !== undefined) {
        // The AI form: the model answers the instruction from the page (or the part `selector` names).
        const scope = str(params.selector);
        return custom(
          `Ask the model: ${quoted(str(params.instruction) ?? '')} → ${str(params.as) ?? DEFAULT_EXTRACT_AS}${scope ? ', looking in' : ''}`,
          [
            ...field('Instruction', [...p, 'instruction'], params.instruction),
            ...field('Output name', [...p, 'as'], params.as),
          ],
          scope ? { selector: scope, otherSelectors: 0 } : { otherSelectors: 0 },
        );
      }
      if (name === 'act') {
        const steps = typeof params.max_steps === 'number' ? params.max_steps : ACT_DEFAULT_STEPS;
        return custom(
          `Let the agent: ${quoted(str(params.instruction) ?? '')} (at most ${steps} step${steps === 1 ? '' : 's'})`,
          field('Instruction', [...p, 'instruction'], params.instruction),
          { otherSelectors: 0 },
        );
      }
      if (name === 'extract') {
        const what = str(params.attribute) ? `its ${str(params.attribute)!} attribute` : 'the text';
        return custom(`Keep ${what} as ${str(params.as) ?? '?'} from`, field('Output name', [...p, 'as'], params.as));
      }
      if (name === 'pause')
        return custom(
          `Pause for a person: ${quoted(str(params.message) ?? '')}`,
          field('Message', [...p, 'message'], params.message),
          { otherSelectors: 0 },
        );
      return custom(`Custom step ${name || '(no name)'}`);
    }
    default:
      return view(type ? `Unknown step type ${quoted(type)}` : 'A step with no type');
  }
}

/** Every step of the flow in words; null when the text is no JSON object with a steps list (the editor says why). */
export function stepsOf(flow: unknown): StepView[] | null {
  if (!isObj(flow) || !Array.isArray(flow.steps)) return null;
  return flow.steps.map((s, i) => describeStep(s, i));
}

/** `{{name}}` and the text between, to show placeholders as chips. */
export function splitPlaceholders(text: string): { text: string; placeholder?: string }[] {
  const out: { text: string; placeholder?: string }[] = [];
  let last = 0;
  for (const m of text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ text: m[0], placeholder: m[1] });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}
