import type { z } from 'zod';
import { ACT_DEFAULT_STEPS, type Step } from '../../../contract/steps.ts';

/** A step as the editor writes it: the contract fills what it defaults (a click's offsets). */
export type StepText = z.input<typeof Step>;

/** A choice of the editor's "Add step" menu: the steps it appends, each valid as it is. */
export interface StepTemplate {
  /** The menu's words for it. */
  label: string;
  /** What it does, under the menu's words. */
  hint: string;
  /** A key press is two Recorder steps, the key going down and coming up; every other choice is one. */
  steps: StepText[];
}

/**
 * The "Add step" menu's choices, in the order a flow usually needs them. Each step has a value
 * where a person would otherwise face an empty required field (a selector, a key, a message), so
 * the flow stays valid and savable while it is filled in; the step list then shows these values
 * as inputs, the selector first.
 */
export const STEP_TEMPLATES: readonly StepTemplate[] = [
  { label: 'Go to', hint: 'Open an address', steps: [{ type: 'navigate', url: 'https://example.com/' }] },
  { label: 'Click', hint: 'Click an element', steps: [{ type: 'click', selectors: [['button']] }] },
  { label: 'Type', hint: 'Type text into a field', steps: [{ type: 'change', selectors: [['input']], value: '' }] },
  {
    label: 'Press a key',
    hint: 'Press and release a key',
    steps: [
      { type: 'keyDown', key: 'Enter' },
      { type: 'keyUp', key: 'Enter' },
    ],
  },
  { label: 'Wait for', hint: 'Wait until an element shows', steps: [{ type: 'waitForElement', selectors: [['h1']] }] },
  {
    label: 'Extract',
    hint: "Keep an element's text as an output",
    steps: [{ type: 'customStep', name: 'extract', parameters: { selectors: [['h1']], as: 'heading' } }],
  },
  {
    label: 'AI extract',
    hint: 'Ask the model to read the page',
    steps: [
      {
        type: 'customStep',
        name: 'extract',
        parameters: { instruction: "The page's main heading", as: 'answer' },
      },
    ],
  },
  {
    label: 'Act',
    hint: 'Let the agent do something',
    steps: [
      {
        type: 'customStep',
        name: 'act',
        parameters: { instruction: 'Close any cookie banner', max_steps: ACT_DEFAULT_STEPS },
      },
    ],
  },
  {
    label: 'Upload a file',
    hint: "Put one of the run's files in a file input",
    steps: [
      {
        type: 'customStep',
        name: 'uploadFile',
        parameters: { selectors: [['input[type=file]']], file: 'document.pdf' },
      },
    ],
  },
  {
    label: 'Pause for a person',
    hint: 'Wait until someone acts in the live view',
    steps: [
      {
        type: 'customStep',
        name: 'pause',
        parameters: { message: 'Finish this part in the browser, then resume the run' },
      },
    ],
  },
];
