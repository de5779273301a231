import type { ViewerInput } from '../../../contract/viewer.ts';
import { NAMED_KEY_DEFINITIONS, characterKeyCode } from './screencastKeys.ts';
import type { FrameGeometry } from './screencast.ts';

/** One CDP command to the shown tab. */
export interface InputCommand {
  method: 'Input.dispatchMouseEvent' | 'Input.dispatchKeyEvent' | 'Input.insertText';
  params: Record<string, unknown>;
}

const MOUSE_TYPE = { move: 'mouseMoved', down: 'mousePressed', up: 'mouseReleased' } as const;
/** Ctrl or Meta held: the key is a shortcut, not typing (Ctrl+A selects, it does not type an "a"). */
const SHORTCUT_MODIFIERS = 2 | 4;

const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);

/**
 * A point on the frame the viewer shows onto the page, in CSS pixels: the frame is the page's
 * viewport scaled by one factor (deviceWidth / JPEG width) with `offsetTop` CSS pixels above it, as
 * DevTools' own screencast maps it. A point past the frame (the viewer's frame was a bigger one a
 * moment ago) lands on the page's edge.
 */
export function toPagePoint(x: number, y: number, g: FrameGeometry): { x: number; y: number } {
  const scale = g.deviceWidth / g.width;
  return { x: clamp(x * scale, g.deviceWidth - 1), y: clamp(y * scale - g.offsetTop, g.deviceHeight - 1) };
}

/** The CDP command a viewer's input message becomes, on the tab whose last frame had geometry `g`. */
export function toInputCommand(input: ViewerInput, g: FrameGeometry): InputCommand {
  switch (input.t) {
    case 'pointer':
      return {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: MOUSE_TYPE[input.type],
          ...toPagePoint(input.x, input.y, g),
          button: input.button,
          buttons: input.buttons,
          clickCount: input.clickCount,
          modifiers: input.modifiers,
        },
      };
    case 'wheel':
      return {
        method: 'Input.dispatchMouseEvent',
        params: {
          type: 'mouseWheel',
          ...toPagePoint(input.x, input.y, g),
          deltaX: input.deltaX,
          deltaY: input.deltaY,
          modifiers: input.modifiers,
        },
      };
    case 'key':
      return { method: 'Input.dispatchKeyEvent', params: keyEvent(input) };
    case 'text':
      return { method: 'Input.insertText', params: { text: input.text } };
  }
}

function keyEvent(input: Extract<ViewerInput, { t: 'key' }>): Record<string, unknown> {
  const named = Object.hasOwn(NAMED_KEY_DEFINITIONS, input.key)
    ? NAMED_KEY_DEFINITIONS[input.key as keyof typeof NAMED_KEY_DEFINITIONS]
    : undefined;
  const keyCode = named ? named.keyCode : characterKeyCode(input.key);
  const typed = named ? named.text : input.key;
  const text = input.type === 'down' && !(input.modifiers & SHORTCUT_MODIFIERS) ? typed : undefined;
  return {
    // A key that types is keyDown (with its text); one that does not is rawKeyDown, as Chromium's own input sends them.
    type: input.type === 'up' ? 'keyUp' : text ? 'keyDown' : 'rawKeyDown',
    key: input.key,
    code: input.code ?? named?.code ?? '',
    windowsVirtualKeyCode: keyCode,
    modifiers: input.modifiers,
    ...(text ? { text, unmodifiedText: text } : {}),
  };
}
