import { EmbedOptions, type ScaleMode } from '../../../contract/viewer.ts';

/** Which white-label page an embed shows: the noVNC viewer (vnc_url) or the view-only livestream. */
export type EmbedView = 'vnc' | 'live';

/** The embed panel's choices; colours are left out of the URL when unset (the page's defaults apply). */
export interface EmbedChoices {
  view: EmbedView;
  view_only: boolean;
  scale: ScaleMode;
  accent?: string;
  background?: string;
}

/** The options that each page reads: the livestream is always view-only and always fitted. */
export const OPTIONS_OF: Record<EmbedView, readonly (keyof EmbedOptions)[]> = {
  vnc: ['view_only', 'scale', 'accent', 'background'],
  live: ['background'],
};

/**
 * The embed URL for `choices`, from the session's own URLs. A view-only noVNC embed takes the
 * view token (the livestream's): the server then refuses input whatever the query says, so whoever
 * copies the snippet cannot turn it into a remote control by deleting `view_only=1`.
 */
export function embedUrl(
  urls: { vnc_url?: string; livestream_url?: string },
  choices: EmbedChoices,
): string | undefined {
  const source = choices.view === 'vnc' ? urls.vnc_url : urls.livestream_url;
  if (!source) return undefined;
  const url = new URL(source);
  if (choices.view === 'vnc' && choices.view_only && urls.livestream_url) {
    const viewToken = new URL(urls.livestream_url).searchParams.get('token');
    if (viewToken) url.searchParams.set('token', viewToken);
  }
  const wanted = OPTIONS_OF[choices.view];
  // Only what differs from the page's defaults, so the URL stays short and readable.
  const defaults = EmbedOptions.parse({});
  if (wanted.includes('view_only') && choices.view_only !== defaults.view_only)
    url.searchParams.set('view_only', choices.view_only ? '1' : '0');
  if (wanted.includes('scale') && choices.scale !== defaults.scale) url.searchParams.set('scale', choices.scale);
  for (const key of ['accent', 'background'] as const) {
    const value = choices[key];
    if (wanted.includes(key) && value) url.searchParams.set(key, value);
  }
  return url.toString();
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The `<iframe>` a customer pastes into their page: responsive 16:9, fullscreen and clipboard allowed. */
export function iframeSnippet(src: string, title: string): string {
  return `<iframe
  src="${escapeAttribute(src)}"
  title="${escapeAttribute(title)}"
  style="width: 100%; aspect-ratio: 16 / 9; border: 0"
  allow="clipboard-read; clipboard-write; fullscreen"
  allowfullscreen
></iframe>`;
}
