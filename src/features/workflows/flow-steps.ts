import {
  applyEdits,
  findNodeAtLocation,
  getNodeValue,
  modify,
  parseTree,
  type FormattingOptions,
  type Node,
} from 'jsonc-parser';
import type { JsonPath } from '../../components/steps/describe-step.ts';

/**
 * The edits the step list makes to the flow's text. The text stays the source of truth: each edit
 * changes only the part of the text it concerns (a value, or one step's span), so the rest keeps
 * the layout its author gave it.
 */

/** The text's own indentation and line ends, for the rare edit that has to add lines. */
export function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

function stepNodes(text: string): Node[] | null {
  const tree = parseTree(text, [], { disallowComments: true });
  const steps = tree && findNodeAtLocation(tree, ['steps']);
  return steps?.type === 'array' ? (steps.children ?? []) : null;
}

/** Set one string (a step's value, URL, file name) and change nothing else in the text. */
export function setFlowValue(text: string, path: JsonPath, value: string): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: formattingOf(text) }));
}

/**
 * Swap step `index` with its neighbour (`by` −1: the one before, +1: the one after). Each step's
 * text moves as written; the separators between them stay where they were.
 */
export function moveStep(text: string, index: number, by: -1 | 1): string {
  const nodes = stepNodes(text);
  const [i, j] = by < 0 ? [index - 1, index] : [index, index + 1];
  const a = nodes?.[i];
  const b = nodes?.[j];
  if (!a || !b || i < 0) return text;
  const span = (n: Node) => text.slice(n.offset, n.offset + n.length);
  return (
    text.slice(0, a.offset) +
    span(b) +
    text.slice(a.offset + a.length, b.offset) +
    span(a) +
    text.slice(b.offset + b.length)
  );
}

/** The blanks a line of `text` starts with, for the line `offset` is on. */
const indentAt = (text: string, offset: number) =>
  /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))![0];

/**
 * Add `steps` after step `after` (after the last one when it is not given), each on lines of its
 * own at its neighbours' indentation (one level inside the list's when it is empty), written as
 * Chrome's Recorder exports a step. The steps already there keep their text.
 */
export function insertSteps(text: string, steps: readonly unknown[], after?: number): string {
  const tree = parseTree(text, [], { disallowComments: true });
  const list = tree && findNodeAtLocation(tree, ['steps']);
  if (list?.type !== 'array' || steps.length === 0) return text;
  const { insertSpaces, tabSize, eol } = formattingOf(text);
  const unit = insertSpaces ? ' '.repeat(tabSize ?? 2) : '\t';
  const before = after === undefined ? list.children?.at(-1) : list.children?.[after];
  if (after !== undefined && !before) return text;
  const indent = before ? indentAt(text, before.offset) : indentAt(text, list.offset) + unit;
  const written = steps.map((s) =>
    JSON.stringify(s, null, unit)
      .split('\n')
      .join(eol + indent),
  );
  if (before) {
    // Right after that step, before the comma that led to the next one: the steps after it keep their text.
    const end = before.offset + before.length;
    return text.slice(0, end) + written.map((w) => `,${eol}${indent}${w}`).join('') + text.slice(end);
  }
  const inside = eol + indent + written.join(`,${eol}${indent}`) + eol + indentAt(text, list.offset);
  return text.slice(0, list.offset + 1) + inside + text.slice(list.offset + list.length - 1);
}

/**
 * Set the key of step `index`; when it is a key going down and the next step lets the same key
 * up (the pair "Add step" writes for a key press), that one too, so the press stays one key.
 */
export function setStepKey(text: string, index: number, key: string): string {
  const nodes = stepNodes(text);
  const [here, next] = [nodes?.[index], nodes?.[index + 1]].map(
    (n) => (n && (getNodeValue(n) as { type?: unknown; key?: unknown } | null)) ?? undefined,
  );
  const changed = setFlowValue(text, ['steps', index, 'key'], key);
  const pair = here?.type === 'keyDown' && next?.type === 'keyUp' && next.key === here.key;
  return pair ? setFlowValue(changed, ['steps', index + 1, 'key'], key) : changed;
}

/** Remove step `index` with its separator; the other steps keep their text. */
export function deleteStep(text: string, index: number): string {
  const nodes = stepNodes(text);
  const n = nodes?.[index];
  if (!nodes || !n) return text;
  const next = nodes[index + 1];
  if (next) return text.slice(0, n.offset) + text.slice(next.offset); // the step, its comma and the gap up to the next
  const prev = nodes[index - 1];
  if (prev) return text.slice(0, prev.offset + prev.length) + text.slice(n.offset + n.length); // the last: from the comma after the one before
  // The only step: the list becomes [].
  const list = n.parent!;
  return text.slice(0, list.offset + 1) + text.slice(list.offset + list.length - 1);
}

/** The one change that turns `from` into `to`: what lies between their common start and common end. */
export function changedSpan(from: string, to: string): { from: number; to: number; insert: string } {
  let start = 0;
  const shorter = Math.min(from.length, to.length);
  while (start < shorter && from.charCodeAt(start) === to.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && from.charCodeAt(from.length - 1 - end) === to.charCodeAt(to.length - 1 - end)) end++;
  return { from: start, to: from.length - end, insert: to.slice(start, to.length - end) };
}

/** Which step (from 0) the text's line (from 1) is in, if any: to show a problem at its step. */
export function stepAtLine(text: string, line: number): number | undefined {
  const nodes = stepNodes(text);
  if (!nodes) return undefined;
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const lineOf = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const found = nodes.findIndex((n) => lineOf(n.offset) <= line && line <= lineOf(n.offset + n.length - 1));
  return found < 0 ? undefined : found;
}
