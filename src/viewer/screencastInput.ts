import { ViewerInput } from '../../contract/viewer.ts';

/**
 * The screencast viewer's DOM events as ViewerInput messages (contract/viewer.ts). Pure functions of
 * the event and the canvas's geometry, so they can be tested without a stream.
 */

type Modified = Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>;

/** CDP's modifier bits: Alt 1, Ctrl 2, Meta 4, Shift 8. */
export const modifiersOf = (e: Modified): number =>
  (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);

/** Where the canvas shows its frame (object-fit: contain: scaled by one factor and centred). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A point on the page (client coordinates) as a point on the frame, in the frame's pixels; null
 * when it falls on the letterbox around the frame or there is no frame yet.
 */
export function framePoint(
  clientX: number,
  clientY: number,
  box: Box,
  frame: { width: number; height: number },
): { x: number; y: number } | null {
  if (!frame.width || !frame.height || !box.width || !box.height) return null;
  const scale = Math.min(box.width / frame.width, box.height / frame.height);
  const x = (clientX - box.left - (box.width - frame.width * scale) / 2) / scale;
  const y = (clientY - box.top - (box.height - frame.height * scale) / 2) / scale;
  if (x < 0 || y < 0 || x >= frame.width || y >= frame.height) return null;
  return { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 };
}

const BUTTON = ['left', 'middle', 'right'] as const;

/** A mouse event on the frame at `at`: move, down or up, with its button and click count. */
export function pointerInput(
  type: 'move' | 'down' | 'up',
  e: Modified & Pick<MouseEvent, 'button' | 'buttons' | 'detail'>,
  at: { x: number; y: number },
): ViewerInput | null {
  const button = type === 'move' ? 'none' : BUTTON[e.button];
  if (!button) return null; // back and forward buttons are not passed on
  return checked({
    t: 'pointer',
    type,
    ...at,
    button,
    buttons: e.buttons & 7,
    clickCount: type === 'move' ? 0 : Math.min(Math.max(e.detail, 1), 3),
    modifiers: modifiersOf(e),
  });
}

/** A key going down or up; null for a key the viewer does not pass on (dead keys, media keys, IME composition). */
export function keyInput(
  type: 'down' | 'up',
  e: Modified & Pick<KeyboardEvent, 'key' | 'code' | 'isComposing'>,
): ViewerInput | null {
  if (e.isComposing) return null;
  return checked({ t: 'key', type, key: e.key, code: e.code || undefined, modifiers: modifiersOf(e) });
}

/** A message the server would refuse (and close the stream for) is not sent at all. */
function checked(input: unknown): ViewerInput | null {
  const parsed = ViewerInput.safeParse(input);
  return parsed.success ? parsed.data : null;
}
