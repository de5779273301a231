import { describe, expect, it } from 'vitest';
import type { RecorderState } from '../../../contract/recorder.ts';
import { lastKept, recordedWorkflow } from './recorded-flow.ts';

const state: RecorderState = {
  flow: {
    title: 'Recording',
    steps: [
      { type: 'navigate', url: 'https://shop.test/' },
      { type: 'change', selectors: [['#pw']], value: '{{password}}' },
      { type: 'change', selectors: [['#name']], value: 'Ada {{not_ours}}x' },
      { type: 'keyDown', key: 'Enter' },
    ],
  },
  variables: [{ name: 'password', type: 'string', required: true }],
  recording: true,
  warnings: [],
};

describe('recordedWorkflow', () => {
  it('keeps the steps not undone and renames placeholders as the person named them', () => {
    const wf = recordedWorkflow(state, { name: 'Shop', removed: new Set([3]), names: { password: 'shop_password' } });
    expect(wf.name).toBe('Shop');
    expect(wf.flow.title).toBe('Shop');
    expect(wf.flow.steps).toEqual([
      { type: 'navigate', url: 'https://shop.test/' },
      { type: 'change', selectors: [['#pw']], value: '{{shop_password}}' },
      { type: 'change', selectors: [['#name']], value: 'Ada {{not_ours}}x' },
    ]);
    expect(wf.variables).toEqual([{ name: 'shop_password', type: 'string', required: true }]);
  });

  it('keeps a placeholder left blank under its own name', () => {
    const wf = recordedWorkflow(state, { name: 'Shop', removed: new Set(), names: { password: ' ' } });
    expect(wf.flow.steps[1]).toMatchObject({ value: '{{password}}' });
  });
});

describe('lastKept', () => {
  it('is the last step not undone yet, or none', () => {
    expect(lastKept(4, new Set([3]))).toBe(2);
    expect(lastKept(2, new Set([0, 1]))).toBeUndefined();
  });
});
