// Kept apart from leaveKeys.ts (and its focus library) so pages can name the chord without loading the viewer.

/**
 * The chord that takes the keyboard back from the remote browser. noVNC sends every key to the
 * remote side, Tab and Escape included (a remote page needs both), so leaving needs a chord no page
 * uses: Ctrl+Alt+Shift, the chord Apache Guacamole's viewer uses for its own menu.
 */
export const LEAVE_KEYS_LABEL = 'Ctrl+Alt+Shift';

const MODIFIERS = new Set(['Control', 'Alt', 'Shift']);

/** The keydown that completes Ctrl+Alt+Shift, pressed in any order, with no other key. */
export function isLeaveChord(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): boolean {
  return MODIFIERS.has(e.key) && e.ctrlKey && e.altKey && e.shiftKey && !e.metaKey;
}
