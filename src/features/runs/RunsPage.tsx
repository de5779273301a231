import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RunStatus, type RunSummary } from '../../../contract/runs.ts';
import { useRunPages } from '../../api/runs/get-run-pages.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';
import { formatDuration } from '../../lib/format.ts';
import { DataTable } from '../../components/tables/DataTable.tsx';
import { ListControls, ListFooter } from '../../components/tables/ListControls.tsx';
import { matchesSearch, setOrDelete } from '../../components/tables/list-params.ts';
import { sortByValue, type ListFeatures } from '../../components/tables/table-features.ts';
import { useListTable } from '../../components/tables/useListTable.ts';

const OUTCOME: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
};
/** The columns the list sorts by (?sort=<id>:asc|desc); newest first when none is chosen. */
export const RUN_SORT_COLUMNS = ['workflow', 'outcome', 'started', 'duration'] as const;
const DEFAULT_SORT: SortingState = [{ id: 'started', desc: true }];

/** The outcome filter as it sits in the URL (?status=failed); anything else is no filter. */
export function readStatusFilter(params: URLSearchParams): RunStatus | undefined {
  const parsed = RunStatus.safeParse(params.get('status'));
  return parsed.success ? parsed.data : undefined;
}

const runId = (r: RunSummary) => r.session_id;
const runStarted = (r: RunSummary) => r.created_at;

const helper = createColumnHelper<ListFeatures, RunSummary>();
const columns = helper.columns([
  helper.accessor((r) => r.workflow_name ?? undefined, {
    id: 'workflow',
    header: 'Workflow',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ row: { original: r } }) => (
      <Link to={`/runs/${r.session_id}`} className="truncate" title={r.workflow_name ?? undefined}>
        {r.workflow_name ?? 'Deleted workflow'}
      </Link>
    ),
  }),
  helper.accessor('status', {
    id: 'outcome',
    header: 'Outcome',
    sortFn: sortByValue,
    cell: ({ row: { original: r } }) => (
      <span className={`badge ${r.status}`} title={r.message}>
        {OUTCOME[r.status]}
      </span>
    ),
  }),
  helper.accessor('created_at', {
    id: 'started',
    header: 'Started',
    sortFn: sortByValue,
    cell: ({ getValue }) => <When iso={getValue()} />,
  }),
  helper.accessor((r) => r.duration_ms ?? undefined, {
    id: 'duration',
    header: 'Duration',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ getValue }) => {
      const ms = getValue();
      return ms === undefined ? <span className="status">—</span> : formatDuration(ms);
    },
  }),
  helper.accessor('message', {
    header: 'Message',
    enableSorting: false,
    cell: ({ getValue }) => (
      <span className="truncate run-message" title={getValue()}>
        {getValue()}
      </span>
    ),
  }),
]);

/**
 * Every run (or those of one outcome, filtered by the server), loaded a page at a time, in a table
 * that sorts, searches and narrows to a date range within the loaded rows; each row opens its run
 * (live progress, or the inspector once ended). Outcome, search, dates and sort are kept in the URL.
 */
export function RunsPage() {
  const id = useId();
  const searchParams = useSearchParams();
  const status = readStatusFilter(searchParams[0]);
  const runs = useRunPages({ status });

  const { table, loaded, sorting, update } = useListTable(searchParams, {
    pages: runs.data?.pages,
    getRowId: runId,
    createdAt: runStarted,
    sortColumns: RUN_SORT_COLUMNS,
    defaultSort: DEFAULT_SORT,
    columns,
    enableRowSelection: false,
    getColumnCanGlobalFilter: (column) => column.id === 'workflow',
    globalFilterFn: (row, _id, value: string) =>
      matchesSearch(
        [
          row.original.workflow_name ?? 'deleted workflow',
          row.original.session_id,
          OUTCOME[row.original.status],
          row.original.message,
        ],
        value,
      ),
  });
  const shown = table.getRowModel().rows.length;

  return (
    <>
      <div className="row spread">
        <h1>Runs</h1>
        <Link to="/run" className="button">
          Run a workflow
        </Link>
      </div>
      <section className="card list-card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Every run</h2>
        <ListControls searchLabel="Search" searchPlaceholder="Workflow, message, id">
          <div className="list-control">
            <label htmlFor={`${id}-status`}>Outcome</label>
            <select
              id={`${id}-status`}
              value={status ?? ''}
              onChange={(e) => update((p) => setOrDelete(p, 'status', e.target.value))}
            >
              <option value="">All</option>
              {RunStatus.options.map((s) => (
                <option key={s} value={s}>
                  {OUTCOME[s]}
                </option>
              ))}
            </select>
          </div>
        </ListControls>
        {runs.isPending && (
          <p className="status" role="status">
            Loading runs…
          </p>
        )}
        {runs.isError && <ErrorNotice error={runs.error} title="Could not load the runs." />}
        {runs.isSuccess && loaded.length === 0 && (
          <p className="status">
            {status ? 'No runs with this outcome.' : 'No runs yet. Run a workflow to see it here.'}
          </p>
        )}
        {loaded.length > 0 && (
          <>
            <DataTable
              table={table}
              caption={`Runs${status ? `, ${OUTCOME[status].toLowerCase()} only` : ''}, sorted by ${sorting[0]?.id} within the loaded rows`}
              rowHref={(r) => `/runs/${r.session_id}`}
              rowAttrs={(r) => ({ 'data-session-id': r.session_id })}
              cellClass={{ started: 'nowrap', duration: 'nowrap', message: 'cell-message' }}
              empty={<p className="status">No loaded run matches the search or dates.</p>}
            />
            <ListFooter
              shown={shown}
              loaded={loaded.length}
              noun="runs"
              hasMore={runs.hasNextPage}
              loadingMore={runs.isFetchingNextPage}
              onLoadMore={() => void runs.fetchNextPage()}
            />
          </>
        )}
      </section>
    </>
  );
}
