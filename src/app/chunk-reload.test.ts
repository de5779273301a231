import { describe, expect, it } from 'vitest';
import { isStaleChunkError, shouldReload } from './chunk-reload.ts';

describe('stale chunks', () => {
  it("recognises the browsers' failed dynamic imports, and nothing else", () => {
    expect(
      isStaleChunkError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/RunsPage-abc.js')),
    ).toBe(true);
    expect(isStaleChunkError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isStaleChunkError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isStaleChunkError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isStaleChunkError(undefined)).toBe(false);
  });

  it('reloads once per address a minute', () => {
    const href = 'http://x/runs';
    expect(shouldReload(null, href, 1000)).toBe(true);
    const last = JSON.stringify({ href, at: 1000 });
    expect(shouldReload(last, href, 30_000)).toBe(false);
    expect(shouldReload(last, href, 62_000)).toBe(true);
    expect(shouldReload(last, 'http://x/sessions', 30_000)).toBe(true);
    expect(shouldReload('not json', href, 30_000)).toBe(true);
  });
});
