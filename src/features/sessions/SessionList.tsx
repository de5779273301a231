import { createColumnHelper, type RowSelectionState } from '@tanstack/react-table';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Session } from '../../../contract/sessions.ts';
import { isStatus } from '../../api/errors.ts';
import { useSessionPages } from '../../api/sessions/get-session-pages.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';
import { formatDuration } from '../../lib/format.ts';
import { DataTable } from '../../components/tables/DataTable.tsx';
import { ListControls, ListFooter } from '../../components/tables/ListControls.tsx';
import { setOrDelete } from '../../components/tables/list-params.ts';
import { SEARCH_SETTLE_MS, serverSearchOf, useSettled } from '../../components/tables/server-search.ts';
import { sortByValue, type ListFeatures } from '../../components/tables/table-features.ts';
import { useListTable } from '../../components/tables/useListTable.ts';
import { BulkEnd } from './BulkEnd.tsx';
import { IsolationBadge } from './IsolationBadge.tsx';
import {
  emptyListText,
  endedBadly,
  endReasonText,
  readStateFilter,
  SESSION_DEFAULT_SORT,
  SESSION_SEARCH_COLUMNS,
  SESSION_SORT_COLUMNS,
  STATE_FILTER_OPTIONS,
} from './session-filter.ts';
import { TimeLeft } from './TimeLeft.tsx';

const sessionId = (s: Session) => s.id;
const durationMs = (s: Session) =>
  s.ended_at ? new Date(s.ended_at).getTime() - new Date(s.created_at).getTime() : undefined;

const helper = createColumnHelper<ListFeatures, Session>();
const columns = helper.columns([
  helper.display({
    id: 'select',
    header: ({ table }) => (
      <input
        type="checkbox"
        aria-label="Select all listed sessions that have not ended"
        checked={table.getIsAllPageRowsSelected()}
        ref={(el) => {
          if (el) el.indeterminate = !table.getIsAllPageRowsSelected() && table.getIsSomePageRowsSelected();
        }}
        disabled={!table.getRowModel().rows.some((r) => r.getCanSelect())}
        onChange={table.getToggleAllPageRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) =>
      row.getCanSelect() ? (
        <input
          type="checkbox"
          aria-label={`Select session ${row.original.id.slice(0, 8)}`}
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ) : null,
  }),
  helper.accessor('id', {
    header: 'Session',
    enableSorting: false,
    cell: ({ row, getValue }) => (
      <>
        <Link to={`/sessions/${getValue()}`}>
          <code>{getValue().slice(0, 8)}</code>
          <span className="visually-hidden"> session {getValue()}</span>
        </Link>{' '}
        {/* Only the kind that is not the default is named, so the list stays quiet. */}
        <IsolationBadge session={row.original} quiet />
      </>
    ),
  }),
  helper.accessor((s) => s.workflow_name ?? undefined, {
    id: 'workflow',
    header: 'Workflow',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ row }) =>
      row.original.workflow_name === null ? (
        <span className="status">deleted</span>
      ) : (
        // A 200-character name is cut with the whole of it on hover.
        <span className="truncate" title={row.original.workflow_name}>
          {row.original.workflow_name}
        </span>
      ),
  }),
  helper.accessor('state', {
    header: 'State',
    sortFn: sortByValue,
    cell: ({ row }) => {
      const bad = endedBadly(row.original);
      return <span className={`badge ${bad ? 'failed' : row.original.state}`}>{row.original.state}</span>;
    },
  }),
  helper.accessor(endReasonText, {
    id: 'end_reason',
    header: 'End reason',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ getValue }) => getValue() ?? <span className="status">—</span>,
  }),
  helper.accessor('created_at', {
    id: 'started',
    header: 'Started',
    sortFn: sortByValue,
    cell: ({ getValue }) => <When iso={getValue()} />,
  }),
  helper.accessor(durationMs, {
    id: 'duration',
    header: 'Duration',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ getValue }) => {
      const ms = getValue();
      return ms === undefined ? <span className="status">—</span> : formatDuration(ms);
    },
  }),
  helper.display({
    id: 'end',
    header: 'Ended or time left',
    cell: ({ row: { original: s } }) =>
      s.state === 'ended' ? s.ended_at ? <When iso={s.ended_at} /> : '—' : <TimeLeft expiresAt={s.expires_at} />,
  }),
]);

/**
 * Every session, or those of one state, searched, narrowed to a date range and sorted by the server
 * over the whole list, loaded a page at a time. The state, search, dates and sort are kept in the
 * URL. Live sessions can be selected and ended together.
 */
export function SessionList() {
  const searchParams = useSearchParams();
  const state = readStateFilter(searchParams[0]);
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const search = serverSearchOf(searchParams[0], SESSION_SEARCH_COLUMNS);
  const sessions = useSessionPages({ state, ...search, q: useSettled(search.q, SEARCH_SETTLE_MS) });

  const { table, loaded, sorting, update } = useListTable(searchParams, {
    pages: sessions.data?.pages,
    getRowId: sessionId,
    sortColumns: SESSION_SORT_COLUMNS,
    defaultSort: SESSION_DEFAULT_SORT,
    columns,
    manualSorting: true,
    state: { rowSelection },
    onRowSelectionChange: setRowSelection,
    enableRowSelection: (row) => row.original.state !== 'ended',
  });
  const searched = Boolean(search.q || search.from || search.to);
  // Only rows on screen and still running are ended: a selection hidden by the search is not acted on.
  const selected = table
    .getRowModel()
    .rows.filter((r) => r.getIsSelected() && r.getCanSelect())
    .map((r) => r.id);
  const shown = table.getRowModel().rows.length;

  return (
    <section className="card list-card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <ListControls searchLabel="Search" searchPlaceholder="Workflow, metadata, id">
        <div className="list-control">
          <label htmlFor="sessions-state">Show</label>
          <select
            id="sessions-state"
            value={state ?? ''}
            onChange={(e) => {
              setRowSelection({});
              update((p) => setOrDelete(p, 'state', e.target.value));
            }}
          >
            {STATE_FILTER_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </ListControls>
      <BulkEnd ids={selected} onDone={() => setRowSelection({})} onClear={() => setRowSelection({})} />
      {sessions.isPending && (
        <p className="status" role="status">
          Loading sessions…
        </p>
      )}
      {sessions.isError &&
        (isStatus(sessions.error, 404) ? (
          <p className="status">
            This server does not list sessions; a session you launch here still opens on its own page.
          </p>
        ) : (
          <ErrorNotice error={sessions.error} title="Could not load the sessions." />
        ))}
      {sessions.isSuccess && loaded.length === 0 && (
        <p className="status">{searched ? 'No session matches the search or dates.' : emptyListText(state)}</p>
      )}
      {loaded.length > 0 && (
        <>
          <DataTable
            table={table}
            caption={`Sessions${state ? `, ${state} only` : ''}, sorted by ${sorting[0]?.id.replace('_', ' ')} (updates by itself)`}
            rowHref={(s) => `/sessions/${s.id}`}
            rowAttrs={(s) => ({ 'data-session-id': s.id })}
            cellClass={{ select: 'cell-select', started: 'nowrap', end: 'nowrap', duration: 'nowrap' }}
          />
          <ListFooter
            shown={shown}
            searched={searched}
            noun="sessions"
            hasMore={sessions.hasNextPage}
            loadingMore={sessions.isFetchingNextPage}
            onLoadMore={() => void sessions.fetchNextPage()}
          />
        </>
      )}
    </section>
  );
}
