import { describe, expect, it } from 'vitest';
import { Flow, Step } from '../../../contract/steps.ts';
import { WorkflowInput } from '../../../contract/workflows.ts';
import { describeStep, stepsOf } from '../../components/steps/describe-step.ts';
import { insertSteps } from './flow-steps.ts';
import { STEP_TEMPLATES } from './step-templates.ts';
import { emptyFlowText } from './workflow-form.ts';

describe('the "Add step" templates', () => {
  it('offers the ten kinds the issue names, in the server’s step types', () => {
    expect(STEP_TEMPLATES.map((t) => t.label)).toEqual([
      'Go to',
      'Click',
      'Type',
      'Press a key',
      'Wait for',
      'Extract',
      'AI extract',
      'Act',
      'Upload a file',
      'Pause for a person',
    ]);
    expect(STEP_TEMPLATES.map((t) => t.steps.map((s) => (s.type === 'customStep' ? s.name : s.type)))).toEqual([
      ['navigate'],
      ['click'],
      ['change'],
      ['keyDown', 'keyUp'],
      ['waitForElement'],
      ['extract'],
      ['extract'],
      ['act'],
      ['uploadFile'],
      ['pause'],
    ]);
  });

  it.each(STEP_TEMPLATES.map((t) => [t.label, t] as const))('%s passes the contract’s step schema', (_, template) => {
    for (const step of template.steps) {
      const parsed = Step.safeParse(step);
      expect(parsed.error?.issues ?? []).toEqual([]);
    }
  });

  it('all of them together make a flow, and a workflow, the server accepts', () => {
    const steps = STEP_TEMPLATES.flatMap((t) => t.steps);
    expect(Flow.safeParse({ title: 'every kind', steps }).error?.issues ?? []).toEqual([]);
    const input = WorkflowInput.safeParse({ name: 'every kind', flow: { title: 'every kind', steps } });
    expect(input.error?.issues ?? []).toEqual([]);
    // The contract gives the click the Recorder's offsets.
    expect(input.data!.flow.steps[1]).toMatchObject({ type: 'click', offsetX: 1, offsetY: 1 });
  });

  it('each step acting on an element shows its selector as an input, first', () => {
    for (const template of STEP_TEMPLATES) {
      const step = template.steps[0] as Record<string, unknown>;
      const view = describeStep(step, 0);
      const onElement = 'selectors' in step || 'selectors' in ((step.parameters as object | undefined) ?? {});
      if (onElement) expect(view.selectorField, template.label).toMatchObject({ label: 'Selector' });
      // Every template has something to type into, which the editor focuses.
      expect(view.selectorField ?? view.fields[0], template.label).toBeDefined();
    }
  });

  it('appended to a new workflow’s flow, each reads back as the step it is', () => {
    for (const template of STEP_TEMPLATES) {
      const text = insertSteps(emptyFlowText(), template.steps);
      expect(JSON.parse(text)).toEqual({ title: 'New workflow', steps: template.steps });
      expect(stepsOf(JSON.parse(text))).toHaveLength(template.steps.length);
    }
  });
});
