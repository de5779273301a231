// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLeaveChord } from './leaveChord.ts';
import { watchLeaveChord } from './leaveKeys.ts';

const key = (
  type: 'keydown' | 'keyup',
  k: string,
  code: string,
  mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {},
) => new KeyboardEvent(type, { key: k, code, bubbles: true, cancelable: true, ...mods });

describe('the chord that leaves the remote screen', () => {
  it('is Ctrl+Alt+Shift in any order, and nothing else', () => {
    const all = { ctrlKey: true, altKey: true, shiftKey: true };
    expect(isLeaveChord({ key: 'Shift', ...all, metaKey: false })).toBe(true);
    expect(isLeaveChord({ key: 'Control', ...all, metaKey: false })).toBe(true);
    expect(isLeaveChord({ key: 'Alt', ...all, metaKey: false })).toBe(true);
    // Ctrl+Alt+Shift+T is a key for the remote page, not the way out.
    expect(isLeaveChord({ key: 'T', ...all, metaKey: false })).toBe(false);
    expect(isLeaveChord({ key: 'Shift', ...all, metaKey: true })).toBe(false);
    expect(isLeaveChord({ key: 'Shift', ctrlKey: true, altKey: false, shiftKey: true, metaKey: false })).toBe(false);
  });
});

describe('watchLeaveChord', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  function setUp() {
    const screen = document.createElement('div');
    const canvas = document.createElement('canvas');
    screen.append(canvas);
    document.body.append(screen);
    const seen: string[] = [];
    // Stands in for noVNC's keyboard, which listens on the canvas itself.
    for (const type of ['keydown', 'keyup'] as const)
      canvas.addEventListener(type, (e) => seen.push(`${type} ${e.code}`));
    const onLeave = vi.fn();
    const stop = watchLeaveChord(screen, onLeave);
    return { canvas, seen, onLeave, stop };
  }

  it('keeps the last key of the chord from the viewer, releases the ones it already sent, and leaves', () => {
    const { canvas, seen, onLeave } = setUp();
    canvas.dispatchEvent(key('keydown', 'Control', 'ControlLeft', { ctrlKey: true }));
    canvas.dispatchEvent(key('keydown', 'Alt', 'AltLeft', { ctrlKey: true, altKey: true }));
    const last = key('keydown', 'Shift', 'ShiftLeft', { ctrlKey: true, altKey: true, shiftKey: true });
    canvas.dispatchEvent(last);
    expect(last.defaultPrevented).toBe(true);
    expect(onLeave).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['keydown ControlLeft', 'keydown AltLeft', 'keyup ControlLeft', 'keyup AltLeft']);
  });

  it('lets every other key through, and a key already released is not released again', () => {
    const { canvas, seen, onLeave, stop } = setUp();
    canvas.dispatchEvent(key('keydown', 'a', 'KeyA'));
    canvas.dispatchEvent(key('keyup', 'a', 'KeyA'));
    canvas.dispatchEvent(key('keydown', 'Tab', 'Tab'));
    canvas.dispatchEvent(key('keyup', 'Tab', 'Tab'));
    expect(onLeave).not.toHaveBeenCalled();
    expect(seen).toEqual(['keydown KeyA', 'keyup KeyA', 'keydown Tab', 'keyup Tab']);
    stop();
    canvas.dispatchEvent(key('keydown', 'Shift', 'ShiftLeft', { ctrlKey: true, altKey: true, shiftKey: true }));
    expect(onLeave).not.toHaveBeenCalled();
  });
});
