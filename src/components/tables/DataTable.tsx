import type { ReactTable, RowData } from '@tanstack/react-table';
import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { ListFeatures } from './table-features.ts';
import './tables.css';

/** Clicks on these inside a row do their own thing; a click anywhere else in the row opens it. */
const INTERACTIVE = 'a, button, input, select, textarea, label, summary, [role="button"]';

/**
 * A compact list table: column headers sort (a button each, aria-sort on the header), every row opens
 * its page. The link in the first cell is the keyboard and screen-reader way in; the whole row is
 * clickable for the mouse. In a narrow box (a phone) each row becomes a block of labelled lines.
 */
export function DataTable<T extends RowData>(props: {
  table: ReactTable<ListFeatures, T>;
  caption: string;
  /** Where a row leads (its first cell's link goes there too). */
  rowHref(row: T): string;
  /** Attributes on each <tr>, e.g. data-session-id. */
  rowAttrs?(row: T): Record<string, string>;
  /** A class per column id (e.g. numbers aligned right). */
  cellClass?: Partial<Record<string, string>>;
  empty?: ReactNode;
}) {
  const { table } = props;
  const navigate = useNavigate();
  const rows = table.getRowModel().rows;
  const open = (e: MouseEvent<HTMLTableRowElement>, href: string) => {
    if (e.button !== 0 || (e.target as Element).closest(INTERACTIVE)) return;
    // Selecting text in a row is not a click on it.
    if (window.getSelection?.()?.toString()) return;
    if (e.ctrlKey || e.metaKey || e.shiftKey) window.open(href, '_blank', 'noopener');
    else void navigate(href);
  };
  const label = (id: string) => {
    const h = table.getColumn(id)?.columnDef.header;
    return typeof h === 'string' ? h : '';
  };

  return (
    <div className="table-wrap list-table-wrap">
      <table className="list-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                const canSort = header.column.getCanSort();
                return (
                  <th
                    key={header.id}
                    scope="col"
                    className={props.cellClass?.[header.column.id]}
                    aria-sort={
                      canSort ? (sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none') : undefined
                    }
                  >
                    {header.isPlaceholder ? null : canSort ? (
                      <button type="button" className="sort" onClick={header.column.getToggleSortingHandler()}>
                        <table.FlexRender header={header} />
                        <span className="sort-mark" aria-hidden="true">
                          {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                        </span>
                      </button>
                    ) : (
                      <table.FlexRender header={header} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((row) => {
            const href = props.rowHref(row.original);
            return (
              <tr
                key={row.id}
                {...props.rowAttrs?.(row.original)}
                className={row.getIsSelected() ? 'selected' : undefined}
                onClick={(e) => open(e, href)}
              >
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} data-label={label(cell.column.id)} className={props.cellClass?.[cell.column.id]}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && props.empty}
    </div>
  );
}
