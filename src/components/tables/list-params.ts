import type { SortingState } from '@tanstack/react-table';

/**
 * A list's search, date range and sort as they sit in the URL (?q=checkout&from=2026-11-01&to=2026-11-25&sort=duration:asc),
 * so a reload or a shared link shows the same rows in the same order. Only values that make sense are read back.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A column's id and direction, from `sort=<id>:asc|desc`; the fallback when absent or not one of `columns`. */
export function readSort(params: URLSearchParams, columns: readonly string[], fallback: SortingState): SortingState {
  const [id, dir] = (params.get('sort') ?? '').split(':');
  if (!id || !columns.includes(id) || (dir !== 'asc' && dir !== 'desc')) return fallback;
  return [{ id, desc: dir === 'desc' }];
}

export function writeSort(params: URLSearchParams, sorting: SortingState): void {
  const first = sorting[0];
  if (first) params.set('sort', `${first.id}:${first.desc ? 'desc' : 'asc'}`);
  else params.delete('sort');
}

/** The search text (?q=), trimmed only when matching. */
export const readSearch = (params: URLSearchParams): string => params.get('q') ?? '';

/** The date range's ends as YYYY-MM-DD (what <input type="date"> holds); anything else is no bound. */
export function readDateRange(params: URLSearchParams): { from: string; to: string } {
  const day = (key: string) => {
    const v = params.get(key) ?? '';
    return DAY.test(v) && !Number.isNaN(new Date(`${v}T00:00:00`).getTime()) ? v : '';
  };
  return { from: day('from'), to: day('to') };
}

/** Sets `key`, or removes it when the value is empty, so the URL holds only what is chosen. */
export function setOrDelete(params: URLSearchParams, key: string, value: string): void {
  if (value) params.set(key, value);
  else params.delete(key);
}
