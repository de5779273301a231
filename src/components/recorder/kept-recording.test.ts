import { describe, expect, it } from 'vitest';
import type { RecorderState } from '../../../contract/recorder.ts';
import { keptRecording, lastKept, type PlaceholderChoice } from './kept-recording.ts';

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

describe('keptRecording', () => {
  it('keeps the steps not undone and renames a placeholder made a variable', () => {
    const kept = keptRecording(state, {
      removed: new Set([3]),
      names: { password: { kind: 'variable', name: 'shop_password' } },
    });
    expect(kept.steps).toEqual([
      { type: 'navigate', url: 'https://shop.test/' },
      { type: 'change', selectors: [['#pw']], value: '{{shop_password}}' },
      { type: 'change', selectors: [['#name']], value: 'Ada {{not_ours}}x' },
    ]);
    expect(kept.variables).toEqual([{ name: 'shop_password', type: 'string', required: true }]);
  });

  it('writes a placeholder made a stored credential as {{credentials.NAME}} and declares no variable for it', () => {
    const kept = keptRecording(state, {
      removed: new Set(),
      names: { password: { kind: 'credential', name: 'shop_login' } },
    });
    expect(kept.steps[1]).toEqual({ type: 'change', selectors: [['#pw']], value: '{{credentials.shop_login}}' });
    expect(kept.steps[2]).toMatchObject({ value: 'Ada {{not_ours}}x' });
    expect(kept.variables).toEqual([]);
  });

  it('keeps a placeholder left blank, or not named at all, under its own name', () => {
    const namings: Record<string, PlaceholderChoice>[] = [{ password: { kind: 'variable', name: ' ' } }, {}];
    for (const names of namings) {
      const kept = keptRecording(state, { removed: new Set(), names });
      expect(kept.steps[1]).toMatchObject({ value: '{{password}}' });
      expect(kept.variables.map((v) => v.name)).toEqual(['password']);
    }
  });
});

describe('lastKept', () => {
  it('is the last step not undone yet, or none', () => {
    expect(lastKept(4, new Set([3]))).toBe(2);
    expect(lastKept(2, new Set([0, 1]))).toBeUndefined();
  });
});
