import { describe, expect, it } from 'vitest';
import {
  placeIssues,
  splitPath,
  toFormValues,
  workflowResolver,
  type VariableRow,
  type WorkflowFormValues,
} from './workflow-form.ts';

const flowText = [
  '{',
  '  "title": "t",',
  '  "steps": [',
  '    { "type": "navigate", "url": "https://x.test/{{who}}" },',
  '    { "type": "click", "offsetX": 1, "offsetY": 1 }',
  '  ]',
  '}',
].join('\n');
const row = (r: Omit<VariableRow, 'description' | 'enumValues'> & Partial<VariableRow>): VariableRow => ({
  description: '',
  enumValues: '',
  ...r,
});
const values = (over: Partial<WorkflowFormValues> = {}): WorkflowFormValues => ({
  name: 'w',
  flowText,
  variables: [],
  metadata: '',
  ...over,
});
const resolve = (v: WorkflowFormValues) =>
  workflowResolver(v, undefined, { fields: {}, shouldUseNativeValidation: false }) as Awaited<
    ReturnType<typeof workflowResolver>
  >;

describe('workflow editor validation', () => {
  it("puts a schema problem of a step on that step's line", async () => {
    const r = await resolve(
      values({ variables: [row({ name: 'who', type: 'string', required: false, default: '' })] }),
    );
    expect(r.errors.flowText?.message).toMatch(/^Line 5: Step 2 \(click\): selectors must be a non-empty list/);
  });

  it('names an undeclared placeholder at its line', async () => {
    const fixed = flowText.replace('"offsetX": 1', '"selectors": [["#b"]], "offsetX": 1');
    const r = await resolve(values({ flowText: fixed }));
    expect(r.errors.flowText?.message).toContain(
      'Line 4: Step 1 (navigate) uses {{who}} but no variable who is declared',
    );
  });

  it('reports JSON syntax errors with their line', async () => {
    const r = await resolve(
      values({ flowText: '{\n  "title": "t",\n  "steps": [\n    { "type": "navigate" \n  ]\n}' }),
    );
    expect(r.errors.flowText?.message).toMatch(/^Line [45]: JSON syntax: /);
  });

  it('checks variable defaults against their type and passes a valid workflow', async () => {
    const fixed = flowText.replace('"offsetX": 1', '"selectors": [["#b"]], "offsetX": 1');
    const bad = await resolve(
      values({ flowText: fixed, variables: [row({ name: 'who', type: 'number', required: false, default: 'abc' })] }),
    );
    expect(bad.errors.variables?.[0]?.default?.message).toBe("default must have the variable's type");
    const good = await resolve(
      values({ flowText: fixed, variables: [row({ name: 'who', type: 'number', required: true, default: '3' })] }),
    );
    expect(good.errors).toEqual({});
    expect(good.values).toMatchObject({
      name: 'w',
      variables: [{ name: 'who', type: 'number', required: true, default: 3 }],
    });
  });

  it("hands on the flow as written, keys in their order, not the validator's reordered copy", async () => {
    const written = '{"steps": [{"url": "https://x.test", "type": "navigate", "zz": 1}], "title": "t"}';
    const r = await resolve(values({ flowText: written }));
    expect(r.errors).toEqual({});
    expect(JSON.stringify(r.values.flow)).toBe(JSON.stringify(JSON.parse(written)));
  });

  it("keeps what Simplex's CLI set (descriptions, enums and their values) through an edit", async () => {
    const fixed = flowText.replace('"offsetX": 1', '"selectors": [["#b"]], "offsetX": 1');
    const variables = [
      { name: 'who', type: 'string' as const, required: true, description: 'Customer name' },
      {
        name: 'status',
        type: 'enum' as const,
        required: false,
        enumValues: ['pending', 'on, hold'],
        default: 'on, hold',
      },
    ];
    const form = toFormValues({ name: 'w', flow: JSON.parse(fixed), variables, metadata: null });
    expect(form.variables[1]).toEqual({
      name: 'status',
      type: 'enum',
      required: false,
      default: 'on, hold',
      description: '',
      enumValues: 'pending\non, hold',
    });
    const saved = await resolve({ ...form, flowText: fixed });
    expect(saved.errors).toEqual({});
    expect(saved.values.variables).toEqual(variables);
  });

  it("checks an enum's values and default, on their inputs", async () => {
    const fixed = flowText.replace('"offsetX": 1', '"selectors": [["#b"]], "offsetX": 1');
    const none = await resolve(
      values({
        flowText: fixed,
        variables: [row({ name: 'who', type: 'enum', required: false, default: '', enumValues: ' \n ' })],
      }),
    );
    expect(none.errors.variables?.[0]?.enumValues?.message).toBe(
      'type enum needs enumValues: the values it may take, at least one',
    );
    const outside = await resolve(
      values({
        flowText: fixed,
        variables: [row({ name: 'who', type: 'enum', required: false, default: 'c', enumValues: 'a\nb' })],
      }),
    );
    expect(outside.errors.variables?.[0]?.default?.message).toBe('default must be one of the enumValues');
    // Simplex's name for default, from a server answer, lands on the Default input.
    expect(
      placeIssues(values({ variables: [row({ name: 'who', type: 'string', required: false, default: '' })] }), [
        { path: ['variables', 0, 'defaultValue'], message: 'differ' },
      ]),
    ).toEqual([{ field: 'variables.0.default', message: 'differ' }]);
  });

  it('places server issues (dotted paths) on fields and flow lines', () => {
    const v = values({ variables: [row({ name: 'who', type: 'string', required: false, default: '' })] });
    const placed = placeIssues(v, [
      { path: splitPath('flow.steps.1.offsetX'), message: 'bad' },
      { path: splitPath('variables.0.name'), message: 'taken' },
      { path: splitPath('name'), message: 'exists' },
    ]);
    expect(placed).toEqual([
      { field: 'variables.0.name', message: 'taken' },
      { field: 'name', message: 'exists' },
      { field: 'flowText', message: 'Line 5: Step 2 (click): bad' },
    ]);
  });
});
