import { describe, expect, it } from 'vitest';
import { readEmbedOptions } from '../../viewer/embed/embedOptions.ts';
import { embedUrl, iframeSnippet } from './embed-url.ts';

const urls = {
  vnc_url: 'http://host:8080/s/abc/vnc?token=CONTROL',
  livestream_url: 'http://host:8080/s/abc/live?token=VIEW',
};

describe('embed URL', () => {
  it('is the session URL unchanged with every option at its default', () => {
    expect(embedUrl(urls, { view: 'vnc', view_only: false, scale: 'fit' })).toBe(urls.vnc_url);
    expect(embedUrl(urls, { view: 'live', view_only: false, scale: 'fit' })).toBe(urls.livestream_url);
  });

  it('adds the options the page reads, and the page reads them back', () => {
    const url = embedUrl(urls, {
      view: 'vnc',
      view_only: false,
      scale: 'none',
      accent: '#ff0088',
      background: '#000000',
    })!;
    expect(readEmbedOptions(new URL(url).search)).toEqual({
      ok: true,
      options: { view_only: false, scale: 'none', accent: '#ff0088', background: '#000000' },
    });
    expect(new URL(url).searchParams.get('token')).toBe('CONTROL');
  });

  it('gives a view-only noVNC embed the view token, so removing view_only cannot grant control', () => {
    const url = new URL(embedUrl(urls, { view: 'vnc', view_only: true, scale: 'fit' })!);
    expect(url.pathname).toBe('/s/abc/vnc');
    expect(url.searchParams.get('token')).toBe('VIEW');
    expect(url.searchParams.get('view_only')).toBe('1');
  });

  it('leaves out of a livestream URL the options that page ignores', () => {
    const url = new URL(
      embedUrl(urls, { view: 'live', view_only: true, scale: 'none', accent: '#123456', background: '#abcdef' })!,
    );
    expect([...url.searchParams.keys()].sort()).toEqual(['background', 'token']);
  });

  it('is undefined when the session has no URL of that kind', () => {
    expect(embedUrl({ vnc_url: urls.vnc_url }, { view: 'live', view_only: false, scale: 'fit' })).toBeUndefined();
  });
});

describe('iframe snippet', () => {
  it('escapes the URL for an HTML attribute and names the frame', () => {
    const snippet = iframeSnippet('http://h/s/1/vnc?token=a&scale=none', 'Live "demo"');
    expect(snippet).toContain('src="http://h/s/1/vnc?token=a&amp;scale=none"');
    expect(snippet).toContain('title="Live &quot;demo&quot;"');
    expect(snippet.startsWith('<iframe')).toBe(true);
    expect(snippet.trimEnd().endsWith('</iframe>')).toBe(true);
  });
});
