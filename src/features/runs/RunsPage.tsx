import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { RunStatus, type RunSortField, type RunSummary } from '../../../contract/runs.ts';
import { useRunPages } from '../../api/runs/get-run-pages.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { When } from '../../components/When.tsx';
import { formatDuration } from '../../lib/format.ts';
import { DataTable } from '../../components/tables/DataTable.tsx';
import { ListControls, ListFooter } from '../../components/tables/ListControls.tsx';
import { setOrDelete } from '../../components/tables/list-params.ts';
import { SEARCH_SETTLE_MS, serverSearchOf, useSettled } from '../../components/tables/server-search.ts';
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
/** Each sortable column as the field GET /runs sorts by. */
const RUN_SEARCH_COLUMNS = {
  sortable: RUN_SORT_COLUMNS,
  defaultSort: DEFAULT_SORT,
  fieldOf: {
    workflow: 'workflow_name',
    outcome: 'status',
    started: 'created_at',
    duration: 'duration',
  } satisfies Record<(typeof RUN_SORT_COLUMNS)[number], RunSortField>,
};

/** The outcome filter as it sits in the URL (?status=failed); anything else is no filter. */
export function readStatusFilter(params: URLSearchParams): RunStatus | undefined {
  const parsed = RunStatus.safeParse(params.get('status'));
  return parsed.success ? parsed.data : undefined;
}

const runId = (r: RunSummary) => r.session_id;

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
 * Every run, or those of one outcome, searched, narrowed to a date range and sorted by the server
 * over the whole list, loaded a page at a time; each row opens its run (live progress, or the
 * inspector once ended). Outcome, search, dates and sort are kept in the URL.
 */
export function RunsPage() {
  const id = useId();
  const searchParams = useSearchParams();
  const status = readStatusFilter(searchParams[0]);
  const search = serverSearchOf(searchParams[0], RUN_SEARCH_COLUMNS);
  const runs = useRunPages({ status, ...search, q: useSettled(search.q, SEARCH_SETTLE_MS) });

  const { table, loaded, sorting, update } = useListTable(searchParams, {
    pages: runs.data?.pages,
    getRowId: runId,
    sortColumns: RUN_SORT_COLUMNS,
    defaultSort: DEFAULT_SORT,
    columns,
    manualSorting: true,
    enableRowSelection: false,
  });
  const shown = table.getRowModel().rows.length;
  const searched = Boolean(search.q || search.from || search.to);

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
            {searched
              ? 'No run matches the search or dates.'
              : status
                ? 'No runs with this outcome.'
                : 'No runs yet. Run a workflow to see it here.'}
          </p>
        )}
        {loaded.length > 0 && (
          <>
            <DataTable
              table={table}
              caption={`Runs${status ? `, ${OUTCOME[status].toLowerCase()} only` : ''}, sorted by ${sorting[0]?.id}`}
              rowHref={(r) => `/runs/${r.session_id}`}
              rowAttrs={(r) => ({ 'data-session-id': r.session_id })}
              cellClass={{ started: 'nowrap', duration: 'nowrap', message: 'cell-message' }}
            />
            <ListFooter
              shown={shown}
              searched={searched}
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
