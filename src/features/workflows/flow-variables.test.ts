import { describe, expect, it } from 'vitest';
import { parseLineIssues } from './flow-text.ts';
import { undeclaredPlaceholders } from './flow-variables.ts';

const flow = JSON.stringify({
  title: 't',
  steps: [
    { type: 'navigate', url: 'https://x.test/{{site}}/{{ page }}?q={{site}}' },
    { type: 'change', selectors: [['#p']], value: '{{credentials.login}} {{user}}' },
    { type: 'change', selectors: [['#q']], value: '{{not a name}}' },
    { type: 'waitForExpression', expression: '"{{ignored}}"' },
  ],
});

describe('variables picked up from the flow', () => {
  it('lists each undeclared {{name}} of url and value fields once, in order, leaving credentials and non-names out', () => {
    expect(undeclaredPlaceholders(flow, [])).toEqual(['site', 'page', 'user']);
    expect(undeclaredPlaceholders(flow, ['page', 'user'])).toEqual(['site']);
    expect(undeclaredPlaceholders(flow, ['site', 'page', 'user'])).toEqual([]);
  });

  it('offers nothing while the flow is not valid JSON', () => {
    expect(undeclaredPlaceholders('{"steps": [{"url": "{{a}}"', [])).toEqual([]);
  });
});

describe('line issues back from the field message', () => {
  it('reads the lines formatLineIssues wrote', () => {
    expect(
      parseLineIssues(
        'Line 2: JSON syntax: a comma is expected\nLine 9: Step 3 (click): "offsetX" is missing (a number)',
      ),
    ).toEqual([
      { line: 2, message: 'JSON syntax: a comma is expected' },
      { line: 9, message: 'Step 3 (click): "offsetX" is missing (a number)' },
    ]);
    expect(parseLineIssues(undefined)).toEqual([]);
  });
});
