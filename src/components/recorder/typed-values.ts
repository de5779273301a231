import type { Selector, Step } from '../../../contract/steps.ts';
import { VARIABLE_NAME } from '../../../contract/variables.ts';

/** A value the person typed (or chose in a select) while recording, which they may make a variable. */
export interface TypedValue {
  /** The step's number in the recording. */
  index: number;
  value: string;
  /** A variable name for it: from the field's selectors, valid, and unique among the others. */
  suggested: string;
}

/** What the person chose for one typed value: make it `{{name}}` (its typed value the default), or keep it as typed. */
export interface TypedChoice {
  make: boolean;
  name: string;
}

const NAME_MAX = 40;

/** A variable name from any text: letters, digits and _, lower case, not starting with a digit. */
export function variableNameOf(text: string): string {
  const name = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, NAME_MAX)
    .replace(/_+$/, '');
  if (!name) return 'value';
  return /^[0-9]/.test(name) ? `field_${name}` : name;
}

/**
 * What names the field a change step typed into, read from its selectors as Chrome's Recorder
 * writes them: the accessible name (`aria/Email[role="textbox"]`), else the css id (`#email`) or
 * name attribute (`[name="email"]`), else the last css word.
 */
function fieldNameOf(selectors: readonly Selector[]): string | undefined {
  // A selector list names the element in its innermost frame or shadow root last.
  const innermost = selectors.map((s) => (typeof s === 'string' ? s : (s.at(-1) ?? '')));
  const aria = innermost.find((s) => s.startsWith('aria/'));
  if (aria) {
    const label = aria.slice(5).replace(/\[role=.*\]$/, '');
    if (label.trim()) return label;
  }
  const css = innermost.filter((s) => !/^(aria|xpath|text|pierce)\//.test(s));
  for (const s of css) {
    const id = /#([A-Za-z][\w-]*)\s*$/.exec(s);
    if (id) return id[1];
    const named = /\[name=["']?([^"'\]]+)["']?\]\s*$/.exec(s);
    if (named) return named[1];
  }
  const word = css.map((s) => /([A-Za-z][\w-]*)[^\w-]*$/.exec(s)?.[1]).find(Boolean);
  return word;
}

/** `name`, or `name_2`, `name_3`… the first not in `taken`. */
function unique(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name}_${n}`)) return `${name}_${n}`;
}

/**
 * The typed values a recording offers to make variables: each change step kept (not undone) with
 * a literal value (not empty, no placeholder: a password's `{{password}}` is named elsewhere).
 * `taken`: names already used (the recording's placeholders), which no suggestion repeats.
 */
export function typedValues(
  steps: readonly Step[],
  removed: ReadonlySet<number>,
  taken: Iterable<string> = [],
): TypedValue[] {
  const used = new Set(taken);
  const out: TypedValue[] = [];
  steps.forEach((step, index) => {
    if (removed.has(index) || step.type !== 'change' || step.value === '' || step.value.includes('{{')) return;
    const suggested = unique(variableNameOf(fieldNameOf(step.selectors) ?? 'value'), used);
    used.add(suggested);
    out.push({ index, value: step.value, suggested });
  });
  return out;
}

/**
 * What is wrong with the names chosen, by step number: none given, not a variable name, or a name
 * given twice (among the typed values, or with `others`: the placeholders' names).
 */
export function typedNameProblems(
  choices: Readonly<Record<number, TypedChoice>>,
  others: readonly string[] = [],
): Record<number, string> {
  const made = Object.entries(choices).filter(([, c]) => c.make);
  const counts = new Map<string, number>();
  for (const name of [...others, ...made.map(([, c]) => c.name.trim())]) counts.set(name, (counts.get(name) ?? 0) + 1);
  const problems: Record<number, string> = {};
  for (const [index, c] of made) {
    const name = c.name.trim();
    if (!name) problems[Number(index)] = 'Give the variable a name.';
    else if (!VARIABLE_NAME.test(name))
      problems[Number(index)] = 'A variable name is letters, digits and _, not starting with a digit.';
    else if ((counts.get(name) ?? 0) > 1) problems[Number(index)] = `The name ${name} is used twice.`;
  }
  return problems;
}
