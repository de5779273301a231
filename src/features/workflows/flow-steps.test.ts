import { describe, expect, it } from 'vitest';
import {
  insertSteps,
  changedSpan,
  deleteStep,
  formattingOf,
  moveStep,
  setFlowValue,
  setStepKey,
  stepAtLine,
} from './flow-steps.ts';

// A hand-written flow: steps on one line and over several, tabs nowhere, a key order of its own.
const text = `{
  "title": "Search",
  "steps": [
    { "type": "navigate", "url": "https://example.com/" },
    {
      "type": "change",
      "value": "{{query}}",
      "selectors": [["aria/Search"], ["input[name=q]"]]
    },
    { "type": "click", "selectors": [["#submit"]], "offsetX": 1, "offsetY": 1 }
  ]
}
`;

describe('edits keep the rest of the text as written', () => {
  it('sets one value and nothing else', () => {
    const out = setFlowValue(text, ['steps', 1, 'value'], 'say "hi" {{name}}');
    expect(out).toBe(text.replace('"{{query}}"', '"say \\"hi\\" {{name}}"'));
    expect(setFlowValue(text, ['steps', 0, 'url'], 'https://example.org/')).toBe(
      text.replace('https://example.com/', 'https://example.org/'),
    );
  });

  it('moves a step up or down, each step keeping its own layout', () => {
    const down = moveStep(text, 0, 1);
    expect(JSON.parse(down).steps.map((s: { type: string }) => s.type)).toEqual(['change', 'navigate', 'click']);
    expect(down).toContain('    { "type": "navigate", "url": "https://example.com/" },\n    { "type": "click"');
    expect(moveStep(down, 1, -1)).toBe(text);
    expect(moveStep(text, 0, -1)).toBe(text);
    expect(moveStep(text, 2, 1)).toBe(text);
  });

  it('deletes a step at the start, in the middle, at the end, and the only one', () => {
    const types = (t: string) => (JSON.parse(t) as { steps: { type: string }[] }).steps.map((s) => s.type);
    const middle = deleteStep(text, 1);
    expect(types(middle)).toEqual(['navigate', 'click']);
    expect(middle).toBe(text.replace(/ {4}\{\n {6}"type": "change"[\s\S]*?\n {4}\},\n/, ''));
    expect(types(deleteStep(text, 0))).toEqual(['change', 'click']);
    const last = deleteStep(text, 2);
    expect(types(last)).toEqual(['navigate', 'change']);
    expect(last).toContain('"input[name=q]"]]\n    }\n  ]\n}\n');
    const one = '{"title": "t", "steps": [ {"type": "close"} ]}';
    expect(deleteStep(one, 0)).toBe('{"title": "t", "steps": []}');
    expect(deleteStep(text, 7)).toBe(text);
    expect(deleteStep('{ not json', 0)).toBe('{ not json');
  });

  it('reads the text’s indentation and line ends', () => {
    expect(formattingOf(text)).toEqual({ insertSpaces: true, tabSize: 2, eol: '\n' });
    expect(formattingOf('{\r\n\t"a": 1\r\n}')).toEqual({ insertSpaces: false, tabSize: 1, eol: '\r\n' });
  });
});

describe('changedSpan', () => {
  it('is the one span between the common start and end', () => {
    expect(changedSpan('abcdef', 'abXYef')).toEqual({ from: 2, to: 4, insert: 'XY' });
    expect(changedSpan('aaa', 'aaaa')).toEqual({ from: 3, to: 3, insert: 'a' });
    expect(changedSpan('abc', 'abc')).toEqual({ from: 3, to: 3, insert: '' });
    expect(changedSpan('abc', '')).toEqual({ from: 0, to: 3, insert: '' });
    const before = text;
    const after = moveStep(text, 1, 1);
    const span = changedSpan(before, after);
    expect(before.slice(0, span.from) + span.insert + before.slice(span.to)).toBe(after);
  });
});

describe('stepAtLine', () => {
  it('finds the step a line belongs to', () => {
    expect(stepAtLine(text, 4)).toBe(0);
    expect(stepAtLine(text, 5)).toBe(1);
    expect(stepAtLine(text, 7)).toBe(1);
    expect(stepAtLine(text, 9)).toBe(1);
    expect(stepAtLine(text, 10)).toBe(2);
    expect(stepAtLine(text, 2)).toBeUndefined();
    expect(stepAtLine('{ bad', 1)).toBeUndefined();
  });
});

describe('adding steps', () => {
  it('writes a step into an empty list as the Recorder exports one', () => {
    const empty = '{\n  "title": "New",\n  "steps": []\n}\n';
    expect(insertSteps(empty, [{ type: 'click', selectors: [['button']] }])).toBe(
      [
        '{',
        '  "title": "New",',
        '  "steps": [',
        '    {',
        '      "type": "click",',
        '      "selectors": [',
        '        [',
        '          "button"',
        '        ]',
        '      ]',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('adds after the last step at its indentation, the steps before kept as written', () => {
    const out = insertSteps(text, [
      { type: 'keyDown', key: 'Enter' },
      { type: 'keyUp', key: 'Enter' },
    ]);
    const last = '    { "type": "click", "selectors": [["#submit"]], "offsetX": 1, "offsetY": 1 }';
    expect(out).toBe(
      text.replace(
        last,
        `${last},\n    {\n      "type": "keyDown",\n      "key": "Enter"\n    },\n    {\n      "type": "keyUp",\n      "key": "Enter"\n    }`,
      ),
    );
    expect(insertSteps('{ "steps": ', [{ type: 'close' }])).toBe('{ "steps": ');
  });

  it('adds after a chosen step, before the ones that follow it, each kept as written', () => {
    const out = insertSteps(text, [{ type: 'waitForElement', selectors: [['#results']] }], 0);
    const first = '    { "type": "navigate", "url": "https://example.com/" }';
    expect(out).toBe(
      text.replace(
        first,
        `${first},\n    {\n      "type": "waitForElement",\n      "selectors": [\n        [\n          "#results"\n        ]\n      ]\n    }`,
      ),
    );
    const types = (t: string) => (JSON.parse(t) as { steps: { type: string }[] }).steps.map((s) => s.type);
    expect(types(out)).toEqual(['navigate', 'waitForElement', 'change', 'click']);
    // After the last one is the same as after none named; a step that is not there changes nothing.
    expect(insertSteps(text, [{ type: 'close' }], 2)).toBe(insertSteps(text, [{ type: 'close' }]));
    expect(insertSteps(text, [{ type: 'close' }], 3)).toBe(text);
  });

  it('changes a key press’s key in both of its steps, and a lone key in its own', () => {
    const pressed = insertSteps(text, [
      { type: 'keyDown', key: 'Enter' },
      { type: 'keyUp', key: 'Enter' },
    ]);
    const keys = (t: string) => (JSON.parse(t) as { steps: { key?: string }[] }).steps.map((s) => s.key);
    expect(keys(setStepKey(pressed, 3, 'Tab'))).toEqual([undefined, undefined, undefined, 'Tab', 'Tab']);
    // The keyUp alone, or a keyDown whose next step lets another key up: only that step.
    expect(keys(setStepKey(pressed, 4, 'Tab'))).toEqual([undefined, undefined, undefined, 'Enter', 'Tab']);
    const other = setStepKey(setStepKey(pressed, 4, 'Shift'), 3, 'a');
    expect(keys(other)).toEqual([undefined, undefined, undefined, 'a', 'Shift']);
  });
});
