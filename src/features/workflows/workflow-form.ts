import type { FieldErrors, Resolver } from 'react-hook-form';
import type { Flow } from '../../../contract/steps.ts';
import type { Variable } from '../../../contract/variables.ts';
import { WorkflowInput } from '../../../contract/workflows.ts';
import { humanFlowMessage, type FlowIssue } from './flow-messages.ts';
import { formatLineIssues, lineOfPath, parseFlowText, type LineIssue } from './flow-text.ts';

/** What the editor holds: the flow as text (so errors point at lines) and variables as rows of inputs. */
export interface VariableRow {
  name: string;
  type: Variable['type'];
  required: boolean;
  /** As typed; converted to the variable's type on save. Empty means no default. */
  default: string;
  /** Shown beside the run form's input; empty means none. */
  description: string;
  /** type enum: the values it may take, one per line (a value may hold a comma). */
  enumValues: string;
}

/** A new row: a string variable with nothing else set. */
export const emptyVariableRow = (name = '', required = false): VariableRow => ({
  name,
  type: 'string',
  required,
  default: '',
  description: '',
  enumValues: '',
});

/** The values of an enum row's text: one per line, trimmed, blank lines dropped. */
export const enumValuesOf = (text: string) =>
  text
    .split('\n')
    .map((v) => v.trim())
    .filter((v) => v !== '');
export interface WorkflowFormValues {
  name: string;
  flowText: string;
  variables: VariableRow[];
  /** Free text; empty means none (saved as null, which clears it). */
  metadata: string;
}

/**
 * A flow as text in the layout Chrome's Recorder exports (two-space JSON, a final newline), so an
 * imported export reads back byte for byte: the server keeps the keys in their order.
 */
export const flowTextOf = (flow: unknown) => `${JSON.stringify(flow, null, 2)}\n`;

export const emptyFlowText = (title = 'New workflow') => flowTextOf({ title, steps: [] } satisfies Flow);

export function toFormValues(w: {
  name: string;
  flow: unknown;
  variables: Variable[];
  metadata: string | null;
}): WorkflowFormValues {
  return {
    name: w.name,
    metadata: w.metadata ?? '',
    flowText: flowTextOf(w.flow),
    variables: w.variables.map(variableRowOf),
  };
}

/** A stored variable as a row of the editor's inputs. */
export const variableRowOf = (v: Variable): VariableRow => ({
  name: v.name,
  type: v.type,
  required: v.required,
  default: v.default === undefined ? '' : String(v.default),
  description: v.description ?? '',
  enumValues: (v.enumValues ?? []).join('\n'),
});

function typedDefault(row: VariableRow): string | number | boolean | undefined {
  if (row.default === '') return undefined;
  if (row.type === 'number') {
    const n = Number(row.default);
    return Number.isFinite(n) ? n : row.default; // left as text so the schema names the field
  }
  if (row.type === 'boolean') return row.default === 'true' ? true : row.default === 'false' ? false : row.default;
  return row.default;
}

const VARIABLE_FIELDS = new Set(['name', 'type', 'required', 'default', 'description', 'enumValues']);

/** Turn issues (from the contract schema or a server 422) into [form field, message] pairs. */
export function placeIssues(values: WorkflowFormValues, issues: FlowIssue[]): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const flowLines: LineIssue[] = [];
  const { tree, value: flow } = parseFlowText(values.flowText);
  for (const issue of issues) {
    const { path, message } = issue;
    const [head, ...rest] = path;
    if (head === 'flow')
      flowLines.push({
        line: lineOfPath(values.flowText, tree, rest),
        message: humanFlowMessage({ ...issue, path: rest }, flow),
      });
    else if (head === 'variables' && typeof rest[0] === 'number' && values.variables[rest[0]]) {
      // defaultValue is Simplex's name for default: the editor has one Default input.
      const sub = rest[1] === 'defaultValue' ? 'default' : String(rest[1] ?? 'name');
      out.push({ field: `variables.${rest[0]}.${VARIABLE_FIELDS.has(sub) ? sub : 'name'}`, message });
    } else if (head === 'name' || head === 'metadata') out.push({ field: head, message });
    else out.push({ field: 'root.server', message: `${path.join('.')}: ${message}` });
  }
  if (flowLines.length) out.push({ field: 'flowText', message: formatLineIssues(flowLines) });
  return out;
}

/** A server issue path ("flow.steps.3.url") as a path list. */
export const splitPath = (p: string) => p.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));

function nest(list: { field: string; message: string }[]): FieldErrors<WorkflowFormValues> {
  const errors: Record<string, unknown> = {};
  for (const { field, message } of list) {
    const keys = field.split('.');
    let at: Record<string, unknown> = errors;
    keys.forEach((k, i) => {
      if (i === keys.length - 1) {
        if (!at[k]) at[k] = { type: 'validate', message };
        return;
      }
      at[k] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
      at = at[k] as Record<string, unknown>;
    });
  }
  return errors as FieldErrors<WorkflowFormValues>;
}

/** react-hook-form resolver: the contract's WorkflowInput decides, the flow's problems get line numbers. */
export const workflowResolver: Resolver<WorkflowFormValues, unknown, WorkflowInput> = (values) => {
  const parsed = parseFlowText(values.flowText);
  const candidate = {
    name: values.name,
    flow: parsed.value,
    variables: values.variables.map((r) => ({
      name: r.name,
      type: r.type,
      required: r.required,
      default: typedDefault(r),
      ...(r.description.trim() ? { description: r.description } : {}),
      ...(r.type === 'enum' ? { enumValues: enumValuesOf(r.enumValues) } : {}),
    })),
    metadata: values.metadata,
  };
  const result = WorkflowInput.safeParse(candidate);
  const issues = result.success
    ? []
    : result.error.issues.filter((i) => !(parsed.syntax.length && i.path[0] === 'flow'));
  // The issue objects carry zod's details (expected type, allowed values) that the messages are made from.
  const placed = placeIssues(
    values,
    issues.map((i) => ({ ...(i as Omit<FlowIssue, 'path'>), path: i.path as (string | number)[] })),
  );
  if (parsed.syntax.length) placed.push({ field: 'flowText', message: formatLineIssues(parsed.syntax) });
  // The flow as written, not zod's copy: that one has its keys in the schema's order, and a Recorder export is saved unchanged.
  if (result.success && placed.length === 0)
    return { values: { ...result.data, flow: parsed.value as WorkflowInput['flow'] }, errors: {} };
  return { values: {}, errors: nest(placed) };
};
