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
import { readSort, writeSort } from './list-params.ts';
import { listFeatures, type ListFeatures } from './table-features.ts';

type ListTableOptions<TData extends RowData> = Omit<
  TableOptions<ListFeatures, TData>,
  'features' | 'data' | 'getRowId' | 'state' | 'onSortingChange' | 'enableSortingRemoval' | 'enableMultiSort'
> & {
  /** The pages loaded so far (a row on two pages is kept once, as the later page has it). */
  pages: readonly { items: readonly TData[] }[] | undefined;
  /** Keep it stable (a module-level function): the rows are recomputed when it changes. */
  getRowId: (row: TData) => string;
  /** The columns `?sort=` may name, and the order when it names none. */
  sortColumns: readonly string[];
  defaultSort: SortingState;
  /** State of the page's own beyond sort (row selection). */
  state?: Partial<TableState<ListFeatures>>;
};

/**
 * A list page's table (Sessions, Runs, Profiles): the loaded pages deduplicated by id, with the sort
 * read from and written to the URL. Sessions and Runs pass `manualSorting`: the server sorts (and
 * searches) the whole list, so the rows stay in the order it answered. `update` edits the URL's
 * params in place (replacing the history entry), for the page's own filters.
 */
export function useListTable<TData extends RowData>(
  [params, setParams]: [URLSearchParams, SetURLSearchParams],
  { pages, getRowId, sortColumns, defaultSort, state, ...options }: ListTableOptions<TData>,
) {
  const sorting = readSort(params, sortColumns, defaultSort);

  const loaded = useMemo(() => {
    const byId = new Map<string, TData>();
    for (const page of pages ?? []) for (const r of page.items) byId.set(getRowId(r), r);
    return [...byId.values()];
  }, [pages, getRowId]);

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
    data: loaded,
    getRowId,
    state: { sorting, ...state },
    onSortingChange: (u: Updater<SortingState>) =>
      update((p) => writeSort(p, typeof u === 'function' ? u(sorting) : u)),
    enableSortingRemoval: false,
    enableMultiSort: false,
  });

  return { table, loaded, sorting, update };
}
