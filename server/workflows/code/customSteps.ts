import type { LineWriter } from '@puppeteer/replay';
import { DEFAULT_EXTRACT_AS, type Selector, type Step } from '../../../contract/steps.ts';
import { commentLine, jsLiteral } from './jsText.ts';

/**
 * Browserdesk's own steps (contract/steps.ts customStep) as code, the same for both libraries but
 * for how an element is found: uploadFile and extract read or set an element as a run does
 * (server/runs/extension.ts); a pause waits for a person on stdin; an AI step (act, extract with an
 * instruction) needs the server's model, so it becomes a TODO that says so when the script runs.
 */

/** How one library's script reaches the element of a custom step. */
export interface ElementCode {
  /** Statements that leave the step's element in `const element` (within `timeout`). */
  find(out: LineWriter, selectors: Selector[]): void;
  /** A statement giving `element` (a file input) the file at `pathExpression`. */
  upload(pathExpression: string): string;
}

type CustomStep = Extract<Step, { type: 'customStep' }>;

const INNER_TEXT = "(el) => ((el.innerText ?? el.textContent ?? '').trim())";

function writeTodo(out: LineWriter, index: number, what: string, instruction: string) {
  out.appendLine(
    `// TODO step ${index + 1} (${what}): Browserdesk's model did this in a run; write the code for it here.`,
  );
  out.appendLine(commentLine('Instruction', instruction));
  out.appendLine(
    `console.error(${jsLiteral(`Step ${index + 1} (${what}) is a TODO in this script: `)} + ${jsLiteral(instruction)});`,
  );
}

/** Write one custom step as a block of its own, as @puppeteer/replay writes its steps. */
export function writeCustomStep(out: LineWriter, step: CustomStep, index: number, element: ElementCode) {
  out.appendLine('{').startBlock();
  if (step.timeout !== undefined) out.appendLine(`const timeout = ${step.timeout};`);
  if (step.name === 'pause') {
    out.appendLine(`// TODO step ${index + 1} (pause): a person acts in the browser here (run with HEADLESS=false).`);
    out.appendLine(`await waitForPerson(${jsLiteral(step.parameters.message)});`);
  } else if (step.name === 'act') {
    writeTodo(out, index, 'act', step.parameters.instruction);
  } else if (step.name === 'uploadFile') {
    element.find(out, step.parameters.selectors);
    out.appendLine(element.upload(`path.join(parameters.filesDir, ${jsLiteral(step.parameters.file)})`));
  } else if (step.parameters.instruction !== undefined) {
    const as = step.parameters.as ?? DEFAULT_EXTRACT_AS;
    writeTodo(out, index, `extract ${as}`, step.parameters.instruction);
    out.appendLine(`outputs.set(${jsLiteral(as)}, null);`);
  } else {
    element.find(out, step.parameters.selectors!);
    const as = jsLiteral(step.parameters.as);
    if (step.parameters.attribute !== undefined) {
      const attribute = jsLiteral(step.parameters.attribute);
      out.appendLine(`const value = await element.evaluate((el, name) => el.getAttribute(name), ${attribute});`);
      out.appendLine(
        `if (value === null) throw new Error(${jsLiteral(`the element has no ${step.parameters.attribute} attribute`)});`,
      );
      out.appendLine(`outputs.set(${as}, value);`);
    } else {
      out.appendLine(`outputs.set(${as}, await element.evaluate(${INNER_TEXT}));`);
    }
  }
  out.endBlock().appendLine('}');
}
