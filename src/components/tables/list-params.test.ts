import { describe, expect, it } from 'vitest';
import { readDateRange, readSort, setOrDelete, writeSort } from './list-params.ts';

const COLUMNS = ['workflow', 'started', 'duration'] as const;
const FALLBACK = [{ id: 'started', desc: true }];

describe('list params in the URL', () => {
  it('reads a sort of a known column and direction, else the fallback; writes it back', () => {
    expect(readSort(new URLSearchParams('sort=duration:asc'), COLUMNS, FALLBACK)).toEqual([
      { id: 'duration', desc: false },
    ]);
    expect(readSort(new URLSearchParams('sort=workflow:desc'), COLUMNS, FALLBACK)).toEqual([
      { id: 'workflow', desc: true },
    ]);
    for (const bad of ['sort=secret:asc', 'sort=duration', 'sort=duration:up', 'sort=', '']) {
      expect(readSort(new URLSearchParams(bad), COLUMNS, FALLBACK)).toBe(FALLBACK);
    }
    const p = new URLSearchParams('state=live');
    writeSort(p, [{ id: 'workflow', desc: false }]);
    expect(p.toString()).toBe('state=live&sort=workflow%3Aasc');
    writeSort(p, []);
    expect(p.toString()).toBe('state=live');
  });

  it('reads only real calendar days as the date range', () => {
    expect(readDateRange(new URLSearchParams('from=2026-11-01&to=2026-11-25'))).toEqual({
      from: '2026-11-01',
      to: '2026-11-25',
    });
    expect(readDateRange(new URLSearchParams('from=yesterday&to=2026-13-45'))).toEqual({ from: '', to: '' });
    expect(readDateRange(new URLSearchParams(''))).toEqual({ from: '', to: '' });
  });

  it('keeps only chosen values in the URL', () => {
    const p = new URLSearchParams('q=a');
    setOrDelete(p, 'q', '');
    setOrDelete(p, 'from', '2026-11-01');
    expect(p.toString()).toBe('from=2026-11-01');
  });
});
