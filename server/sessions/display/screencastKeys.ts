import type { NamedKey } from '../../../contract/viewer.ts';

/** What CDP's Input.dispatchKeyEvent needs for a key that is not a character: its Windows key code and default code. */
interface KeyDefinition {
  keyCode: number;
  code: string;
  /** The text the key types (Enter submits a form through it). */
  text?: string;
}

/** The US layout's values (as Puppeteer's USKeyboardLayout has them), which Chromium acts on. */
export const NAMED_KEY_DEFINITIONS: Record<NamedKey, KeyDefinition> = {
  Enter: { keyCode: 13, code: 'Enter', text: '\r' },
  Tab: { keyCode: 9, code: 'Tab' },
  Backspace: { keyCode: 8, code: 'Backspace' },
  Delete: { keyCode: 46, code: 'Delete' },
  Escape: { keyCode: 27, code: 'Escape' },
  Insert: { keyCode: 45, code: 'Insert' },
  Home: { keyCode: 36, code: 'Home' },
  End: { keyCode: 35, code: 'End' },
  PageUp: { keyCode: 33, code: 'PageUp' },
  PageDown: { keyCode: 34, code: 'PageDown' },
  ArrowLeft: { keyCode: 37, code: 'ArrowLeft' },
  ArrowUp: { keyCode: 38, code: 'ArrowUp' },
  ArrowRight: { keyCode: 39, code: 'ArrowRight' },
  ArrowDown: { keyCode: 40, code: 'ArrowDown' },
  Shift: { keyCode: 16, code: 'ShiftLeft' },
  Control: { keyCode: 17, code: 'ControlLeft' },
  Alt: { keyCode: 18, code: 'AltLeft' },
  Meta: { keyCode: 91, code: 'MetaLeft' },
  CapsLock: { keyCode: 20, code: 'CapsLock' },
  ContextMenu: { keyCode: 93, code: 'ContextMenu' },
  F1: { keyCode: 112, code: 'F1' },
  F2: { keyCode: 113, code: 'F2' },
  F3: { keyCode: 114, code: 'F3' },
  F4: { keyCode: 115, code: 'F4' },
  F5: { keyCode: 116, code: 'F5' },
  F6: { keyCode: 117, code: 'F6' },
  F7: { keyCode: 118, code: 'F7' },
  F8: { keyCode: 119, code: 'F8' },
  F9: { keyCode: 120, code: 'F9' },
  F10: { keyCode: 121, code: 'F10' },
  F11: { keyCode: 122, code: 'F11' },
  F12: { keyCode: 123, code: 'F12' },
};

/** A character key's Windows key code: letters and digits have one (Ctrl+A needs it); others type by their text alone. */
export function characterKeyCode(char: string): number {
  if (/^[a-z]$/i.test(char)) return char.toUpperCase().charCodeAt(0);
  if (/^[0-9]$/.test(char)) return char.charCodeAt(0);
  if (char === ' ') return 32;
  return 0;
}
