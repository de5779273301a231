import { describe, expect, it } from 'vitest';
import { Flow } from '../../../contract/steps.ts';
import { humanFlowMessage, type FlowIssue } from './flow-messages.ts';

/** What the editor shows for each of the schema's issues with this flow. */
function messagesFor(flow: unknown): string[] {
  const result = Flow.safeParse(flow);
  if (result.success) return [];
  return result.error.issues.map((i) =>
    humanFlowMessage({ ...(i as Omit<FlowIssue, 'path'>), path: i.path as (string | number)[] }, flow),
  );
}

describe('flow problems in words', () => {
  it("an unknown step type lists the types there are, numbered from 1, without the validator's wording", () => {
    const [message] = messagesFor({
      title: 't',
      steps: [{ type: 'navigate', url: 'https://x.test' }, { type: 'clik' }],
    });
    expect(message).toMatch(/^Step 2: "type" must be one of setViewport, navigate, click, .*customStep, not "clik"$/);
    expect(message).not.toMatch(/Invalid discriminator|'navigate' \|/);
  });

  it('a missing or mistyped field names the step, its type, the field and what it should be', () => {
    const messages = messagesFor({
      title: 't',
      steps: [
        { type: 'click', selectors: [['#a']], offsetX: 'left' },
        { type: 'keyDown', key: 'Enter' },
        { type: 'scroll', x: 'far' },
      ],
    });
    expect(messages).toEqual([
      'Step 1 (click): "offsetX" must be a number, not "left"',
      'Step 3 (scroll): "x" must be a number, not "far"',
    ]);
    expect(messagesFor({ title: 't', steps: [{ type: 'change', selectors: [['#a']] }] })).toEqual([
      'Step 1 (change): "value" is missing (a string)',
    ]);
  });

  it('custom steps go by their name; allowed values and bounds read as sentences', () => {
    expect(messagesFor({ title: 't', steps: [{ type: 'customStep', name: 'wait' }] })).toEqual([
      'Step 1 (customStep): "name" must be one of uploadFile, extract, act, pause, not "wait"',
    ]);
    expect(
      messagesFor({
        title: 't',
        steps: [{ type: 'customStep', name: 'extract', parameters: { selectors: [['#t']] } }],
      }),
    ).toEqual(["Step 1 (extract): as is required: the output name the element's text goes under"]);
    expect(
      messagesFor({
        title: 't',
        steps: [
          { type: 'navigate', url: '' },
          { type: 'click', selectors: [['#a']], offsetX: 1, offsetY: 1, button: 'left' },
        ],
      }),
    ).toEqual([
      'Step 1 (navigate): "url" must not be empty',
      'Step 2 (click): "button" must be one of primary, auxiliary, secondary, back, forward',
    ]);
  });

  it('problems outside the steps, and messages that already name their step', () => {
    expect(messagesFor({ steps: 'none' })).toEqual([
      '"title" is missing (a string)',
      '"steps" must be a list [ … ], not "none"',
    ]);
    expect(
      humanFlowMessage(
        { path: ['steps', 0, 'url'], message: 'step 1 (navigate) uses {{x}} but no variable x is declared' },
        {},
      ),
    ).toBe('Step 1 (navigate) uses {{x}} but no variable x is declared');
  });
});
