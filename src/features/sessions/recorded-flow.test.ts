import { describe, expect, it } from 'vitest';
import type { RecorderState } from '../../../contract/recorder.ts';
import { recordedWorkflow } from './recorded-flow.ts';

const state: RecorderState = {
  flow: {
    title: 'Recording',
    steps: [
      { type: 'navigate', url: 'https://shop.test/' },
      { type: 'change', selectors: [['#pw']], value: '{{password}}' },
    ],
  },
  variables: [{ name: 'password', type: 'string', required: true }],
  recording: true,
  warnings: [],
};

describe('recordedWorkflow', () => {
  it('is a new workflow of the name given, with the kept steps and the variables they need', () => {
    const wf = recordedWorkflow(state, {
      name: 'Shop',
      removed: new Set(),
      names: { password: { kind: 'variable', name: 'shop_password' } },
    });
    expect(wf.name).toBe('Shop');
    expect(wf.flow).toEqual({
      title: 'Shop',
      steps: [
        { type: 'navigate', url: 'https://shop.test/' },
        { type: 'change', selectors: [['#pw']], value: '{{shop_password}}' },
      ],
    });
    expect(wf.variables).toEqual([{ name: 'shop_password', type: 'string', required: true }]);
  });
});
