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
