import { createSortedRowModel, rowSelectionFeature, rowSortingFeature, tableFeatures } from '@tanstack/react-table';

/**
 * What the list tables use of TanStack Table: sorting (by the server for Sessions and Runs, which
 * search it too; in the page for Profiles) and row selection (bulk end). Only these features are
 * bundled, in the pages' own chunks.
 */
export const listFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  rowSelectionFeature,
});
export type ListFeatures = typeof listFeatures;

/** Ascending comparison of two rows' values (Table reverses it for descending); null and undefined sort last either way. */
export const compareValues = (a: unknown, b: unknown): number => {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
};

/** A column's sortFn comparing the two rows' values of that column with compareValues. */
export const sortByValue = (
  a: { getValue(id: string): unknown },
  b: { getValue(id: string): unknown },
  id: string,
): number => compareValues(a.getValue(id), b.getValue(id));
