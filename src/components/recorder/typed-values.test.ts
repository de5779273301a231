import { describe, expect, it } from 'vitest';
import type { RecorderState } from '../../../contract/recorder.ts';
import type { Step } from '../../../contract/steps.ts';
import { Variable, VARIABLE_NAME } from '../../../contract/variables.ts';
import { keptRecording } from './kept-recording.ts';
import { typedNameProblems, typedValues, variableNameOf } from './typed-values.ts';

const steps: Step[] = [
  { type: 'navigate', url: 'https://shop.test/' },
  { type: 'change', selectors: [['aria/E-mail address[role="textbox"]'], ['#mail']], value: 'ada@shop.test' },
  { type: 'change', selectors: [['#pw']], value: '{{password}}' },
  { type: 'change', selectors: [['form > input[name="city"]']], value: 'Zürich' },
  { type: 'change', selectors: [['#size']], value: 'L' },
  { type: 'change', selectors: [['#size']], value: 'XL' },
  { type: 'change', selectors: [['#note']], value: '' },
  { type: 'change', selectors: [['iframe', '#inner-field']], value: 'x' },
  { type: 'click', selectors: [['#go']], offsetX: 1, offsetY: 1 },
];

describe('typedValues', () => {
  it('offers each literal value typed, named from its field, unique, and never a placeholder or an empty value', () => {
    const offers = typedValues(steps, new Set(), ['password']);
    expect(offers).toEqual([
      { index: 1, value: 'ada@shop.test', suggested: 'e_mail_address' },
      { index: 3, value: 'Zürich', suggested: 'city' },
      { index: 4, value: 'L', suggested: 'size' },
      { index: 5, value: 'XL', suggested: 'size_2' },
      { index: 7, value: 'x', suggested: 'inner_field' },
    ]);
    for (const o of offers) expect(o.suggested).toMatch(VARIABLE_NAME);
  });

  it('leaves out the steps undone, and names no variable as one already taken', () => {
    const offers = typedValues(steps, new Set([1, 4]), ['city']);
    expect(offers.map((o) => [o.index, o.suggested])).toEqual([
      [3, 'city_2'],
      [5, 'size'],
      [7, 'inner_field'],
    ]);
  });

  it('makes a variable name of any text', () => {
    expect(variableNameOf('Ünïcode Name!!')).toBe('unicode_name');
    expect(variableNameOf('42')).toBe('field_42');
    expect(variableNameOf('***')).toBe('value');
    expect(variableNameOf('a'.repeat(80))).toHaveLength(40);
  });
});

describe('typedNameProblems', () => {
  it('names a blank, invalid or repeated name, and only for the values made variables', () => {
    expect(
      typedNameProblems(
        {
          1: { make: true, name: ' ' },
          3: { make: true, name: '9lives' },
          4: { make: true, name: 'size' },
          5: { make: true, name: 'size' },
          7: { make: true, name: 'password' },
          8: { make: false, name: '' },
          9: { make: true, name: 'fine' },
        },
        ['password'],
      ),
    ).toEqual({
      1: 'Give the variable a name.',
      3: 'A variable name is letters, digits and _, not starting with a digit.',
      4: 'The name size is used twice.',
      5: 'The name size is used twice.',
      7: 'The name password is used twice.',
    });
  });
});

describe('keptRecording with typed values made variables', () => {
  const state: RecorderState = {
    flow: { title: 'Recording', steps },
    variables: [{ name: 'password', type: 'string', required: true }],
    recording: true,
    warnings: [],
  };

  it('writes {{name}} into the step and declares the variable with the typed value as its default', () => {
    const kept = keptRecording(state, {
      removed: new Set([5]),
      names: {},
      typed: {
        1: { make: true, name: ' email ' },
        3: { make: false, name: 'city' },
        5: { make: true, name: 'undone' },
      },
    });
    expect(kept.steps[1]).toMatchObject({ type: 'change', value: '{{email}}' });
    expect(kept.steps[3]).toMatchObject({ value: 'Zürich' });
    expect(kept.steps.filter((s) => s.type === 'change').map((s) => (s as { value: string }).value)).toEqual([
      '{{email}}',
      '{{password}}',
      'Zürich',
      'L',
      '',
      'x',
    ]);
    expect(kept.variables).toEqual([
      { name: 'password', type: 'string', required: true },
      { name: 'email', type: 'string', required: false, default: 'ada@shop.test' },
    ]);
    // What is declared is what the API takes.
    for (const v of kept.variables) expect(Variable.safeParse(v).success).toBe(true);
  });

  it('never makes a placeholder a variable of its own', () => {
    const kept = keptRecording(state, { removed: new Set(), names: {}, typed: { 2: { make: true, name: 'pw' } } });
    expect(kept.steps[2]).toMatchObject({ value: '{{password}}' });
    expect(kept.variables.map((v) => v.name)).toEqual(['password']);
  });
});
