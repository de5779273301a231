/**
 * Schema problems of a flow in words a person can act on: "Step 3 (click): "offsetY" is missing
 * (a number)" rather than the validator's "Invalid input: expected number, received undefined".
 * Steps are numbered from 1, as the lists and the run page number them.
 */

/** What the editor knows about one problem: the path inside the flow, and the validator's details when they came from zod. */
export interface FlowIssue {
  path: (string | number)[];
  message: string;
  code?: string;
  expected?: string;
  /** invalid_value: the allowed values. */
  values?: readonly unknown[];
  /** invalid_union on a discriminator: the allowed values of that field. */
  options?: readonly unknown[];
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
}

const A: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list [ … ]',
  object: 'an object { … }',
};

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let at = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

const list = (values: readonly unknown[]) =>
  values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/** "Step 3 (click)", or "Step 3" when its type is the problem or unknown. */
function stepLabel(flow: unknown, index: number, field: string): string {
  const step = valueAt(flow, ['steps', index]);
  const type = valueAt(step, ['type']);
  const name = valueAt(step, ['name']);
  const kind = type === 'customStep' && typeof name === 'string' && field !== 'name' ? name : type;
  return typeof kind === 'string' && field !== 'type' ? `Step ${index + 1} (${kind})` : `Step ${index + 1}`;
}

function bound(issue: FlowIssue, word: 'least' | 'most'): string {
  const n = Number(word === 'least' ? issue.minimum : issue.maximum);
  if (issue.origin === 'string')
    return n === 1 && word === 'least' ? 'must not be empty' : `must have at ${word} ${n} characters`;
  if (issue.origin === 'array') return `must have at ${word} ${n} item${n === 1 ? '' : 's'}`;
  if (issue.inclusive === false) return `must be ${word === 'least' ? 'greater' : 'less'} than ${n}`;
  return `must be at ${word} ${n}`;
}

/** What is wrong with the field, from the validator's details (its raw message only when there are none). */
function problem(issue: FlowIssue, field: string, value: unknown): string {
  const name = field ? `"${field}"` : 'it';
  switch (issue.code) {
    case 'invalid_union':
      if (issue.options?.length) {
        const allowed = `must be one of ${list(issue.options)}`;
        return value === undefined
          ? `${name} is missing: it ${allowed}`
          : `${name} ${allowed}, not ${JSON.stringify(value)}`;
      }
      return `${name} does not match any allowed form`;
    case 'invalid_type': {
      const expected = A[issue.expected ?? ''] ?? issue.expected ?? 'another type';
      if (!field) return `must be ${expected}`;
      return value === undefined
        ? `${name} is missing (${expected})`
        : `${name} must be ${expected}, not ${JSON.stringify(value)}`;
    }
    case 'invalid_value':
      return `${name} must be one of ${list(issue.values ?? [])}`;
    case 'too_small':
      return `${name} ${bound(issue, 'least')}`;
    case 'too_big':
      return `${name} ${bound(issue, 'most')}`;
    case 'unrecognized_keys':
      return issue.message;
    default:
      return issue.message;
  }
}

/** One flow problem as a sentence: where (1-based step and its type), then what to change. */
export function humanFlowMessage(issue: FlowIssue, flow: unknown): string {
  // The contract's own messages already name their step from 1 ("step 2 (navigate) uses {{who}} …").
  if (/^step \d+\b/i.test(issue.message)) return issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
  const [head, index, ...rest] = issue.path;
  const value = valueAt(flow, issue.path);
  if (head === 'steps' && typeof index === 'number') {
    const field = rest.join('.');
    return `${stepLabel(flow, index, field)}: ${problem(issue, field, value)}`;
  }
  const field = issue.path.join('.');
  return field ? problem(issue, field, value) : `The flow ${problem(issue, '', value)}`;
}
