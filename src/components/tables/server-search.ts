import type { SortingState } from '@tanstack/react-table';
import { useEffect, useState } from 'react';
import type { SortOrder } from '../../../contract/listSearch.ts';
import { readDateRange, readSearch, readSort } from './list-params.ts';

/** What a list asks the server for beside its own filter: GET /sessions and /runs search, range and sort the whole list. */
export interface ServerSearch<F extends string> {
  q?: string;
  from?: string;
  to?: string;
  sort: F;
  order: SortOrder;
}

/** The start of a day (YYYY-MM-DD) in the viewer's time zone, the one the dates are shown in, as an instant. */
const startOfDay = (day: string, plusDays = 0) => {
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

/**
 * The URL's search, dates and sort (?q=, ?from=, ?to=, ?sort=<column>:<dir>) as the server's query:
 * both chosen days whole (to the start of the day after `to`), the column as the server's field.
 */
export function serverSearchOf<F extends string>(
  params: URLSearchParams,
  columns: { sortable: readonly string[]; fieldOf: Record<string, F>; defaultSort: SortingState },
): ServerSearch<F> {
  const { from, to } = readDateRange(params);
  const [sort] = readSort(params, columns.sortable, columns.defaultSort);
  const fallback = columns.defaultSort[0]!;
  const q = readSearch(params).trim();
  return {
    q: q || undefined,
    from: from ? startOfDay(from) : undefined,
    to: to ? startOfDay(to, 1) : undefined,
    sort: columns.fieldOf[sort?.id ?? fallback.id] ?? columns.fieldOf[fallback.id]!,
    order: (sort ?? fallback).desc ? 'desc' : 'asc',
  };
}

/** How long a search waits for the typing to pause before it is asked of the server. */
export const SEARCH_SETTLE_MS = 300;

/** `value` once it has stayed the same for `ms`: a search is asked for when the typing pauses, not at each key. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
