import {
  useTable,
  type RowData,
  type SortingState,
  type TableOptions,
  type TableState,
  type Updater,
} from '@tanstack/react-table';
import { useMemo } from 'react';
import type { SetURLSearchParams } from 'react-router';
import { inDateRange, readDateRange, readSearch, readSort, setOrDelete, writeSort } from './list-params.ts';
import { listFeatures, type ListFeatures } from './table-features.ts';

type ListTableOptions<TData extends RowData> = Omit<
  TableOptions<ListFeatures, TData>,
  | 'features'
  | 'data'
  | 'getRowId'
  | 'state'
  | 'onSortingChange'
  | 'onGlobalFilterChange'
  | 'enableSortingRemoval'
  | 'enableMultiSort'
> & {
  /** The pages loaded so far (a row on two pages is kept once, as the later page has it). */
  pages: readonly { items: readonly TData[] }[] | undefined;
  /** Keep it stable (a module-level function), as with `createdAt`: the rows are recomputed when it changes. */
  getRowId: (row: TData) => string;
  /** The instant the date range narrows by. */
  createdAt: (row: TData) => string;
  /** The columns `?sort=` may name, and the order when it names none. */
  sortColumns: readonly string[];
  defaultSort: SortingState;
  /** State of the page's own beyond sort and search (row selection). */
  state?: Partial<TableState<ListFeatures>>;
};

/**
 * A list page's table (Sessions, Runs): the loaded pages deduplicated by id, narrowed to the date
 * range, sorted and searched, with search, dates and sort read from and written to the URL.
 * `update` edits the URL's params in place (replacing the history entry), for the page's own filters.
 */
export function useListTable<TData extends RowData>(
  [params, setParams]: [URLSearchParams, SetURLSearchParams],
  { pages, getRowId, createdAt, sortColumns, defaultSort, state, ...options }: ListTableOptions<TData>,
) {
  const search = readSearch(params);
  const { from, to } = readDateRange(params);
  const sorting = readSort(params, sortColumns, defaultSort);

  const loaded = useMemo(() => {
    const byId = new Map<string, TData>();
    for (const page of pages ?? []) for (const r of page.items) byId.set(getRowId(r), r);
    return [...byId.values()];
  }, [pages, getRowId]);
  const data = useMemo(
    () => loaded.filter((r) => inDateRange(createdAt(r), { from, to })),
    [loaded, createdAt, from, to],
  );

  const update = (fn: (p: URLSearchParams) => void) =>
    setParams(
      (p) => {
        fn(p);
        return p;
      },
      { replace: true },
    );
  const table = useTable({
    ...options,
    features: listFeatures,
    data,
    getRowId,
    state: { sorting, globalFilter: search, ...state },
    onSortingChange: (u: Updater<SortingState>) =>
      update((p) => writeSort(p, typeof u === 'function' ? u(sorting) : u)),
    onGlobalFilterChange: (u: Updater<string>) =>
      update((p) => setOrDelete(p, 'q', typeof u === 'function' ? u(search) : u)),
    enableSortingRemoval: false,
    enableMultiSort: false,
  });

  return { table, loaded, sorting, update };
}
