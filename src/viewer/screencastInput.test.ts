import { describe, expect, it } from 'vitest';
import { framePoint, keyInput, modifiersOf, pointerInput } from './screencastInput.ts';

const none = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };

describe('the screencast viewer input', () => {
  it('maps a click on a letterboxed canvas to frame pixels, and the letterbox to nothing', () => {
    // A 1280x720 frame in a 390x600 box: scaled to 390 wide, 219.4 high, centred vertically.
    const box = { left: 10, top: 20, width: 390, height: 600 };
    const frame = { width: 1280, height: 720 };
    const scale = 390 / 1280;
    const top = 20 + (600 - 720 * scale) / 2;
    expect(framePoint(10, top, box, frame)).toEqual({ x: 0, y: 0 });
    const mid = framePoint(10 + 195, top + 360 * scale, box, frame)!;
    expect(mid.x).toBeCloseTo(640, 0);
    expect(mid.y).toBeCloseTo(360, 0);
    expect(framePoint(100, 25, box, frame)).toBeNull();
    expect(framePoint(100, 300, box, { width: 0, height: 0 })).toBeNull();
  });

  it('passes on characters and named keys, with modifiers, and nothing else', () => {
    expect(keyInput('down', { ...none, key: 'a', code: 'KeyA', isComposing: false })).toEqual({
      t: 'key',
      type: 'down',
      key: 'a',
      code: 'KeyA',
      modifiers: 0,
    });
    expect(modifiersOf({ ...none, ctrlKey: true, shiftKey: true })).toBe(10);
    expect(keyInput('up', { ...none, key: 'Enter', code: 'Enter', isComposing: false })).toMatchObject({ type: 'up' });
    expect(keyInput('down', { ...none, key: 'Dead', code: 'Quote', isComposing: false })).toBeNull();
    expect(keyInput('down', { ...none, key: 'AudioVolumeUp', code: 'AudioVolumeUp', isComposing: false })).toBeNull();
    expect(keyInput('down', { ...none, key: 'a', code: 'KeyA', isComposing: true })).toBeNull();
  });

  it('sends the button and click count of a press, and no back or forward button', () => {
    const down = pointerInput('down', { ...none, button: 0, buttons: 1, detail: 2 }, { x: 5, y: 6 });
    expect(down).toMatchObject({ t: 'pointer', type: 'down', button: 'left', clickCount: 2, buttons: 1 });
    expect(pointerInput('move', { ...none, button: 0, buttons: 0, detail: 0 }, { x: 5, y: 6 })).toMatchObject({
      button: 'none',
      clickCount: 0,
    });
    expect(pointerInput('down', { ...none, button: 3, buttons: 8, detail: 1 }, { x: 5, y: 6 })).toBeNull();
  });
});
