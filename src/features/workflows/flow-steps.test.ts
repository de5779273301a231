import { describe, expect, it } from 'vitest';
import {
  changedSpan,
  deleteStep,
  describeStep,
  stepAtLine,
  formattingOf,
  moveStep,
  setFlowValue,
  splitPlaceholders,
  stepsOf,
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

describe('describeStep', () => {
  it('says what each kind of step does, with its selector', () => {
    const steps = stepsOf(JSON.parse(text))!;
    expect(steps.map((s) => [s.words, s.selector])).toEqual([
      ['Go to https://example.com/', undefined],
      ['Type “{{query}}” into', 'aria/Search'],
      ['Click', '#submit'],
    ]);
    expect(steps[1]!.otherSelectors).toBe(1);
    expect(steps[1]!.fields).toEqual([{ label: 'Value', path: ['steps', 1, 'value'], value: '{{query}}' }]);
    expect(steps[0]!.fields).toEqual([{ label: 'URL', path: ['steps', 0, 'url'], value: 'https://example.com/' }]);
  });

  it('reads custom steps: upload, extract (selectors or AI), act, pause', () => {
    const upload = describeStep(
      { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#file', 'input']], file: 'report.pdf' } },
      3,
    );
    expect(upload).toMatchObject({
      kind: 'uploadFile',
      words: 'Upload file report.pdf into',
      selector: '#file › input',
    });
    expect(upload.fields).toEqual([
      { label: 'File name', path: ['steps', 3, 'parameters', 'file'], value: 'report.pdf' },
    ]);
    expect(
      describeStep({ type: 'customStep', name: 'extract', parameters: { selectors: [['h1']], as: 'title' } }, 0).words,
    ).toBe('Keep the text as title from');
    expect(
      describeStep(
        { type: 'customStep', name: 'extract', parameters: { selectors: [['a']], as: 'link', attribute: 'href' } },
        0,
      ).words,
    ).toBe('Keep its href attribute as link from');
    const ask = describeStep(
      { type: 'customStep', name: 'extract', parameters: { instruction: 'The price', schema: {}, as: 'price' } },
      2,
    );
    expect(ask).toMatchObject({ kind: 'extract', words: 'Ask the model: “The price” → price', otherSelectors: 0 });
    expect(ask.selector).toBeUndefined();
    expect(ask.fields).toEqual([
      { label: 'Instruction', path: ['steps', 2, 'parameters', 'instruction'], value: 'The price' },
      { label: 'Output name', path: ['steps', 2, 'parameters', 'as'], value: 'price' },
    ]);
    expect(
      describeStep(
        { type: 'customStep', name: 'extract', parameters: { instruction: 'The total', selector: 'main' } },
        0,
      ),
    ).toMatchObject({ words: 'Ask the model: “The total” → extract, looking in', selector: 'main' });
    const act = describeStep({ type: 'customStep', name: 'act', parameters: { instruction: 'Accept the cookies' } }, 1);
    expect(act).toMatchObject({ kind: 'act', words: 'Let the agent: “Accept the cookies” (at most 5 steps)' });
    expect(act.selector).toBeUndefined();
    expect(act.fields).toEqual([
      { label: 'Instruction', path: ['steps', 1, 'parameters', 'instruction'], value: 'Accept the cookies' },
    ]);
    expect(
      describeStep({ type: 'customStep', name: 'act', parameters: { instruction: 'Buy', max_steps: 1 } }, 0).words,
    ).toBe('Let the agent: “Buy” (at most 1 step)');
    const pause = describeStep({ type: 'customStep', name: 'pause', parameters: { message: 'Type the code' } }, 0);
    expect(pause).toMatchObject({ kind: 'pause', words: 'Pause for a person: “Type the code”' });
    expect(pause.selector).toBeUndefined();
  });

  it('gives every step a line, even one the schema would refuse', () => {
    expect(describeStep({ type: 'clik' }, 0).words).toBe('Unknown step type “clik”');
    expect(describeStep(42, 0).words).toBe('Not a step (not a JSON object)');
    expect(describeStep({ type: 'keyDown', key: 'Enter' }, 0).words).toBe('Press the Enter key');
    expect(describeStep({ type: 'setViewport', width: 1280, height: 720 }, 0).words).toBe(
      'Set the window to 1280 × 720 px',
    );
    expect(stepsOf({ title: 'no steps' })).toBeNull();
  });
});

describe('splitPlaceholders', () => {
  it('cuts text around {{…}}', () => {
    expect(splitPlaceholders('Hi {{name}}, {{credentials.pw}}')).toEqual([
      { text: 'Hi ' },
      { text: '{{name}}', placeholder: 'name' },
      { text: ', ' },
      { text: '{{credentials.pw}}', placeholder: 'credentials.pw' },
    ]);
    expect(splitPlaceholders('plain')).toEqual([{ text: 'plain' }]);
  });
});

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
