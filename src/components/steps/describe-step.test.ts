import { describe, expect, it } from 'vitest';
import { describeStep, splitPlaceholders, stepsOf } from './describe-step.ts';

const flow = {
  title: 'Search',
  steps: [
    { type: 'navigate', url: 'https://example.com/' },
    { type: 'change', value: '{{query}}', selectors: [['aria/Search'], ['input[name=q]']] },
    { type: 'click', selectors: [['#submit']], offsetX: 1, offsetY: 1 },
  ],
};

describe('describeStep', () => {
  it('says what each kind of step does, with its selector', () => {
    const steps = stepsOf(flow)!;
    expect(steps.map((s) => [s.words, s.selector])).toEqual([
      ['Go to https://example.com/', undefined],
      ['Type “{{query}}” into', 'aria/Search'],
      ['Click', '#submit'],
    ]);
    expect(steps[1]!.otherSelectors).toBe(1);
    expect(steps[1]!.fields).toEqual([{ label: 'Value', path: ['steps', 1, 'value'], value: '{{query}}' }]);
    expect(steps[0]!.fields).toEqual([{ label: 'URL', path: ['steps', 0, 'url'], value: 'https://example.com/' }]);
  });

  it('gives a single first selector an input, and none to a chain through shadow roots or frames', () => {
    const steps = stepsOf(flow)!;
    expect(steps.map((s) => s.selectorField)).toEqual([
      undefined,
      { label: 'Selector', path: ['steps', 1, 'selectors', 0, 0], value: 'aria/Search' },
      { label: 'Selector', path: ['steps', 2, 'selectors', 0, 0], value: '#submit' },
    ]);
    expect(describeStep({ type: 'hover', selectors: ['#menu'] }, 4).selectorField).toEqual({
      label: 'Selector',
      path: ['steps', 4, 'selectors', 0],
      value: '#menu',
    });
    const upload = { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['input']], file: 'a.pdf' } };
    expect(describeStep(upload, 1).selectorField?.path).toEqual(['steps', 1, 'parameters', 'selectors', 0, 0]);
    expect(describeStep({ type: 'click', selectors: [['my-app', '#go']] }, 0).selectorField).toBeUndefined();
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
