import { describe, expect, it } from 'vitest';
import { readEmbedOptions } from './embedOptions.ts';

describe('embed options from the query string', () => {
  it('defaults to an interactive, fitted viewer and ignores the token', () => {
    expect(readEmbedOptions('?token=abc')).toEqual({ ok: true, options: { view_only: false, scale: 'fit' } });
  });

  it('reads view_only, scale and hex colours', () => {
    expect(readEmbedOptions('?token=t&view_only=1&scale=none&accent=%23FF00aa&background=%23000')).toEqual({
      ok: true,
      options: { view_only: true, scale: 'none', accent: '#FF00aa', background: '#000' },
    });
    // 'remote' is no longer offered (the remote screen cannot be resized); links that asked for it get the fitted view.
    expect(readEmbedOptions('?view_only=false&scale=remote')).toMatchObject({
      ok: true,
      options: { view_only: false, scale: 'fit' },
    });
  });

  it('rejects anything but hex colours, a known scale and a boolean, naming each', () => {
    const r = readEmbedOptions('?accent=red&background=url(x)&scale=zoom&view_only=maybe');
    expect(r.ok).toBe(false);
    const problems = r.ok ? [] : r.problems;
    expect(problems).toHaveLength(4);
    for (const key of ['accent', 'background', 'scale', 'view_only'])
      expect(problems.some((p) => p.startsWith(`${key}:`))).toBe(true);
    expect(readEmbedOptions('?accent=%23ff00aa;color:red').ok).toBe(false);
  });
});
