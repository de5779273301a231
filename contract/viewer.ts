import { z } from 'zod';

/**
 * The session view URLs (README.md, "Embedding a live session"): /s/{id}/vnc and /s/{id}/live.
 * A GET returns the white-label viewer page; a WebSocket upgrade on the same path is the stream.
 * These live outside /api (they authenticate with the session's own token, not an API key), so
 * they are not OpenAPI operations, but their shapes are written here like every other edge.
 */

/** The path and query of every session URL that opens with a token: the views, and connect_url (/s/{id}/cdp). */
export const SessionViewParams = z.object({ id: z.string().min(1).max(100) });

/** Only the token matters to the server; the page's own options are validated by the page. */
export const SessionViewQuery = z.looseObject({ token: z.string().min(1).max(200).optional() });

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes' || v === '');

/** #rgb or #rrggbb only: the value goes into CSS, so nothing else is let through. */
const hexColour = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour such as #1a73e8');

/**
 * fit: the remote screen scaled to the frame; none: 1:1 with scrollbars. There is no "resize the
 * remote screen" mode: x11vnc refuses SetDesktopSize, Xvfb can only shrink below the size it started
 * at, and the screen is shared, so one watcher's frame would resize the browser under every other
 * viewer and under a running workflow.
 */
export const ScaleMode = z.enum(['fit', 'none']);
export type ScaleMode = z.infer<typeof ScaleMode>;

/** Embed links made while "remote" was offered keep working: they get the fitted view they looked like. */
const scaleFromQuery = z.preprocess((v) => (v === 'remote' ? 'fit' : v), ScaleMode);

/** Options of the embeddable viewer pages, from their query string. */
export const EmbedOptions = z.object({
  view_only: flag.default(false).describe('Watch only: no keyboard or mouse input reaches the browser'),
  scale: scaleFromQuery
    .default('fit')
    .describe('fit: scale to the frame; none: 1:1 with scrollbars (remote, no longer offered, reads as fit)'),
  accent: hexColour.optional().describe('Accent colour of the status text and focus ring'),
  background: hexColour.optional().describe('Background colour around the remote screen'),
});
export type EmbedOptions = z.infer<typeof EmbedOptions>;

/**
 * WebSocket close codes of the view streams. A viewer stops reconnecting on the first two: the
 * token is wrong or dead (which says nothing about whether the session exists), or the session
 * ended. `waiting`: the session is a queued run's, not started yet; the viewer polls until it is.
 */
export const ViewCloseCode = { unauthorized: 1008, sessionEnded: 4001, waiting: 4002 } as const;

/** The close reason sent with `waiting`: the session is queued for a browser; the viewer tries again. */
export const waitingReason = (position: number) => `queued ${position}`;
export const positionOfWaiting = (reason: string): number | undefined => {
  const m = /^queued (\d+)$/.exec(reason);
  return m ? Number(m[1]) : undefined;
};

/** Meta tag the server adds to the VNC page when its token only grants viewing. */
export const VIEW_ONLY_META = 'browserdesk-view-only';

/**
 * Meta tag the server adds to the VNC page when its session has no display of its own (a context
 * session, sharing its browser's display): the page shows a screencast of the session's own pages
 * and sends input as ViewerInput messages, instead of speaking RFB.
 */
export const SCREENCAST_META = 'browserdesk-view-kind';

/** The largest frame a screencast sends (Page.startScreencast maxWidth/maxHeight), and so the coordinate bounds. */
export const SCREENCAST_MAX = { width: 1920, height: 1080 } as const;

/** Bytes one input message may have: the longest is a pasted text. */
export const MAX_INPUT_MESSAGE_BYTES = 8 * 1024;

/** Characters one `text` message may insert. */
export const MAX_INPUT_TEXT = 2000;

/** Keys that are not a character, as KeyboardEvent.key names them: the ones the screencast viewer passes on. */
export const NAMED_KEYS = [
  'Enter',
  'Tab',
  'Backspace',
  'Delete',
  'Escape',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Shift',
  'Control',
  'Alt',
  'Meta',
  'CapsLock',
  'ContextMenu',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}` as const),
] as const;
export type NamedKey = (typeof NAMED_KEYS)[number];

/** CDP Input modifiers bit field: Alt 1, Ctrl 2, Meta 4, Shift 8. */
const modifiers = z.number().int().min(0).max(15).default(0);
/** A point on the frame the viewer shows, in that frame's pixels (the server maps it onto the page). */
const framePoint = {
  x: z.number().finite().min(0).max(SCREENCAST_MAX.width),
  y: z.number().finite().min(0).max(SCREENCAST_MAX.height),
};

/** One printable character (a code point, so an emoji counts as one), or a named key. */
const keyName = z.union([
  z.enum(NAMED_KEYS),
  z.string().refine((s) => [...s].length === 1 && !/\p{C}/u.test(s), 'must be one printable character or a named key'),
]);

/**
 * What a screencast viewer that may control the session sends: one JSON object per WebSocket text
 * message. Only a control token's socket reads them (never view_only, never a view token); a message
 * that does not parse closes that socket with 1008 and changes nothing else.
 */
export const ViewerInput = z.discriminatedUnion('t', [
  z.strictObject({
    t: z.literal('pointer'),
    type: z.enum(['move', 'down', 'up']),
    ...framePoint,
    button: z.enum(['none', 'left', 'middle', 'right']).default('none'),
    /** Buttons held, as MouseEvent.buttons: left 1, right 2, middle 4 (back and forward are not passed on). */
    buttons: z.number().int().min(0).max(7).default(0),
    clickCount: z.number().int().min(0).max(3).default(0),
    modifiers,
  }),
  z.strictObject({
    t: z.literal('wheel'),
    ...framePoint,
    deltaX: z.number().finite().min(-10_000).max(10_000),
    deltaY: z.number().finite().min(-10_000).max(10_000),
    modifiers,
  }),
  z.strictObject({
    t: z.literal('key'),
    type: z.enum(['down', 'up']),
    key: keyName,
    /** KeyboardEvent.code: letters and digits only (KeyA, Digit1, Enter, ShiftLeft). */
    code: z
      .string()
      .regex(/^[A-Za-z0-9]{1,32}$/)
      .optional(),
    modifiers,
  }),
  z.strictObject({ t: z.literal('text'), text: z.string().min(1).max(MAX_INPUT_TEXT) }),
]);
export type ViewerInput = z.infer<typeof ViewerInput>;
/** A message as a viewer writes it (defaults may be left out). */
export type ViewerInputMessage = z.input<typeof ViewerInput>;
