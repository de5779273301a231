import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCREENCAST_MAX, ViewerInput } from '../contract/viewer.ts';
import { jpegSize } from '../server/sessions/display/jpegSize.ts';
import type { FrameGeometry } from '../server/sessions/display/screencast.ts';
import { toInputCommand, toPagePoint } from '../server/sessions/display/screencastInput.ts';

// A frame of a 1280x720 page sent at half size, the way maxWidth/maxHeight scale it down.
const half: FrameGeometry = { width: 640, height: 360, deviceWidth: 1280, deviceHeight: 720, offsetTop: 0 };

describe('ViewerInput, what a controlling screencast viewer may send', () => {
  it('accepts pointer, wheel, key and text messages, with defaults', () => {
    expect(ViewerInput.parse({ t: 'pointer', type: 'down', x: 1, y: 2, button: 'left', clickCount: 1 })).toEqual({
      t: 'pointer',
      type: 'down',
      x: 1,
      y: 2,
      button: 'left',
      buttons: 0,
      clickCount: 1,
      modifiers: 0,
    });
    expect(ViewerInput.safeParse({ t: 'wheel', x: 0, y: 0, deltaX: 0, deltaY: -120 }).success).toBe(true);
    expect(ViewerInput.safeParse({ t: 'key', type: 'down', key: 'é' }).success).toBe(true);
    expect(ViewerInput.safeParse({ t: 'key', type: 'up', key: '😀', code: 'KeyA' }).success).toBe(true);
    expect(ViewerInput.safeParse({ t: 'key', type: 'down', key: 'F12', modifiers: 15 }).success).toBe(true);
    expect(ViewerInput.safeParse({ t: 'text', text: 'hello' }).success).toBe(true);
  });

  it('refuses unknown kinds and keys, extra fields, out-of-range and oversized values', () => {
    const bad: unknown[] = [
      null,
      [],
      'click',
      { t: 'cdp', method: 'Browser.close' },
      { t: 'pointer', type: 'down', x: SCREENCAST_MAX.width + 1, y: 0 },
      { t: 'pointer', type: 'down', x: -1, y: 0 },
      { t: 'pointer', type: 'down', x: 0, y: Infinity },
      { t: 'pointer', type: 'drag', x: 0, y: 0 },
      { t: 'pointer', type: 'down', x: 0, y: 0, clickCount: 1000 },
      { t: 'pointer', type: 'down', x: 0, y: 0, method: 'Input.dispatchMouseEvent' },
      { t: 'wheel', x: 0, y: 0, deltaX: 0, deltaY: 1e9 },
      { t: 'key', type: 'down', key: 'AudioVolumeUp' },
      { t: 'key', type: 'down', key: 'ab' },
      { t: 'key', type: 'down', key: '\u0007' },
      { t: 'key', type: 'down', key: 'a', code: '../../x' },
      { t: 'key', type: 'down', key: 'a', modifiers: 16 },
      { t: 'text', text: '' },
      { t: 'text', text: 'x'.repeat(2001) },
    ];
    for (const b of bad) expect(ViewerInput.safeParse(b).success, JSON.stringify(b)?.slice(0, 80)).toBe(false);
  });

  it('never throws, and whatever it accepts maps onto a point of the page', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            t: fc.constantFrom('pointer', 'wheel'),
            type: fc.constantFrom('move', 'down', 'up'),
            x: fc.double(),
            y: fc.double(),
            deltaX: fc.double(),
            deltaY: fc.double(),
          }),
        ),
        (raw) => {
          const parsed = ViewerInput.safeParse(raw);
          if (!parsed.success || (parsed.data.t !== 'pointer' && parsed.data.t !== 'wheel')) return;
          const { params } = toInputCommand(parsed.data, half);
          expect(params.x).toBeGreaterThanOrEqual(0);
          expect(params.x).toBeLessThan(half.deviceWidth);
          expect(params.y).toBeGreaterThanOrEqual(0);
          expect(params.y).toBeLessThan(half.deviceHeight);
        },
      ),
    );
  });
});

describe('the input mapped onto the shown tab', () => {
  it('scales frame pixels to CSS pixels, less the offset above the page, clamped to the page', () => {
    expect(toPagePoint(320, 180, half)).toEqual({ x: 640, y: 360 });
    expect(toPagePoint(100, 60, { ...half, offsetTop: 20 })).toEqual({ x: 200, y: 100 });
    expect(toPagePoint(5, 2, { ...half, offsetTop: 20 })).toEqual({ x: 10, y: 0 });
    // A point on a bigger frame the viewer still shows lands on the page's edge.
    expect(toPagePoint(1000, 1000, half)).toEqual({ x: 1279, y: 719 });
  });

  it('turns a press into mousePressed with its button and count', () => {
    const cmd = toInputCommand(
      ViewerInput.parse({ t: 'pointer', type: 'down', x: 10, y: 20, button: 'right', buttons: 2, clickCount: 1 }),
      half,
    );
    expect(cmd).toEqual({
      method: 'Input.dispatchMouseEvent',
      params: { type: 'mousePressed', x: 20, y: 40, button: 'right', buttons: 2, clickCount: 1, modifiers: 0 },
    });
  });

  it('types a character with its text, a named key raw, and a shortcut without text', () => {
    const key = (k: Record<string, unknown>) => toInputCommand(ViewerInput.parse({ t: 'key', ...k }), half).params;
    expect(key({ type: 'down', key: 'a', code: 'KeyA' })).toEqual({
      type: 'keyDown',
      key: 'a',
      code: 'KeyA',
      windowsVirtualKeyCode: 65,
      modifiers: 0,
      text: 'a',
      unmodifiedText: 'a',
    });
    expect(key({ type: 'down', key: 'Backspace' })).toMatchObject({
      type: 'rawKeyDown',
      windowsVirtualKeyCode: 8,
      code: 'Backspace',
    });
    expect(key({ type: 'down', key: 'Enter' })).toMatchObject({ type: 'keyDown', text: '\r' });
    expect(key({ type: 'down', key: 'a', code: 'KeyA', modifiers: 2 })).toEqual({
      type: 'rawKeyDown',
      key: 'a',
      code: 'KeyA',
      windowsVirtualKeyCode: 65,
      modifiers: 2,
    });
    expect(key({ type: 'up', key: 'a' })).toMatchObject({ type: 'keyUp' });
    expect(key({ type: 'up', key: 'a' })).not.toHaveProperty('text');
    // A key named like an Object.prototype member is a character or refused, never a lookup into the prototype.
    expect(ViewerInput.safeParse({ t: 'key', type: 'down', key: 'constructor' }).success).toBe(false);
  });

  it('inserts pasted text as it is', () => {
    expect(toInputCommand({ t: 'text', text: 'a\nb' }, half)).toEqual({
      method: 'Input.insertText',
      params: { text: 'a\nb' },
    });
  });
});

describe('jpegSize', () => {
  // The smallest baseline JPEG header that matters: SOI, an APP0 segment, then SOF0 of 3x2.
  const sof = Buffer.from([
    0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
  ]);
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x00, 0x00]);
  it('reads the frame header after other segments', () => {
    expect(jpegSize(Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof]))).toEqual({ width: 3, height: 2 });
  });
  it('says nothing for bytes that are not a JPEG, or are cut short', () => {
    expect(jpegSize(Buffer.from('not a jpeg at all'))).toBeUndefined();
    expect(jpegSize(Buffer.concat([Buffer.from([0xff, 0xd8]), app0]))).toBeUndefined();
    expect(jpegSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 1, 2, 3, 4, 5, 6]))).toBeUndefined();
    fc.assert(fc.property(fc.uint8Array({ maxLength: 64 }), (b) => void jpegSize(Buffer.from(b))));
  });
});
