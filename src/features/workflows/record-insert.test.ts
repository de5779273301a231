import { describe, expect, it } from 'vitest';
import type { Step } from '../../../contract/steps.ts';
import { insertRecorded, openingSteps, rowsToDeclare } from './record-insert.ts';
import { emptyVariableRow } from './workflow-form.ts';

const text = `{
  "title": "Shop",
  "steps": [
    { "type": "navigate", "url": "https://shop.test/" },
    { "type": "click", "selectors": [["#login"]], "offsetX": 1, "offsetY": 1 }
  ]
}
`;
const recorded: Step[] = [
  { type: 'change', selectors: [['#user']], value: 'ada' },
  { type: 'keyDown', key: 'Enter' },
];
const typesOf = (t: string) => (JSON.parse(t) as { steps: { type: string }[] }).steps.map((s) => s.type);

describe('insertRecorded', () => {
  it('puts the steps after the step chosen, the others keeping their text', () => {
    const out = insertRecorded(text, recorded, 0);
    expect(typesOf(out)).toEqual(['navigate', 'change', 'keyDown', 'click']);
    expect(out).toContain('    { "type": "navigate", "url": "https://shop.test/" },');
    expect(out).toContain('    { "type": "click", "selectors": [["#login"]], "offsetX": 1, "offsetY": 1 }');
  });

  it('puts them at the end when no step is chosen, or the chosen one is gone since', () => {
    expect(typesOf(insertRecorded(text, recorded))).toEqual(['navigate', 'click', 'change', 'keyDown']);
    expect(typesOf(insertRecorded(text, recorded, 7))).toEqual(['navigate', 'click', 'change', 'keyDown']);
  });

  it('fills an empty flow', () => {
    expect(typesOf(insertRecorded('{ "title": "New", "steps": [] }', recorded))).toEqual(['change', 'keyDown']);
  });
});

describe('openingSteps', () => {
  it('are the window size and start page a recording begins with', () => {
    const viewport: Step = {
      type: 'setViewport',
      width: 1280,
      height: 720,
      deviceScaleFactor: 1,
      isMobile: false,
      hasTouch: false,
      isLandscape: true,
    };
    const start: Step = { type: 'navigate', url: 'https://shop.test/' };
    expect(openingSteps([viewport, start, ...recorded])).toEqual([0, 1]);
    expect(openingSteps([start, ...recorded])).toEqual([0]);
    expect(openingSteps(recorded)).toEqual([]);
    expect(openingSteps([recorded[0]!, start])).toEqual([]);
  });
});

describe('rowsToDeclare', () => {
  it('adds a row for each variable the workflow does not declare yet', () => {
    const rows = rowsToDeclare(
      [emptyVariableRow('user')],
      [
        { name: 'user', type: 'string', required: true },
        { name: 'password', type: 'string', required: true },
      ],
    );
    expect(rows).toEqual([{ ...emptyVariableRow('password', true) }]);
  });
});
