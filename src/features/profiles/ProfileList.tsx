import { createColumnHelper, type SortingState } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Profile } from '../../../contract/profiles.ts';
import { DataTable } from '../../components/tables/DataTable.tsx';
import { sortByValue, type ListFeatures } from '../../components/tables/table-features.ts';
import { useListTable } from '../../components/tables/useListTable.ts';
import { When } from '../../components/When.tsx';
import { formatBytes } from '../../lib/format.ts';
import { InUseBy } from './InUseBy.tsx';
import { profileHref, versionText } from './profile-text.ts';

/** The columns the list sorts by (?sort=<id>:asc|desc); by name when none is chosen. */
const SORT_COLUMNS = ['name', 'size', 'version', 'last_used'] as const;
const DEFAULT_SORT: SortingState = [{ id: 'name', desc: false }];

const nameOf = (p: Profile) => p.name;

const helper = createColumnHelper<ListFeatures, Profile>();
const columns = helper.columns([
  helper.accessor('name', {
    id: 'name',
    header: 'Name',
    sortFn: sortByValue,
    cell: ({ getValue }) => (
      <Link to={profileHref(getValue())} className="truncate" title={getValue()}>
        {getValue()}
      </Link>
    ),
  }),
  helper.accessor('size', {
    id: 'size',
    header: 'Size',
    sortFn: sortByValue,
    cell: ({ getValue }) => formatBytes(getValue()),
  }),
  helper.accessor((p) => p.version ?? undefined, {
    id: 'version',
    header: 'Version',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ row: { original: p } }) => versionText(p),
  }),
  helper.accessor((p) => p.last_used_at ?? undefined, {
    id: 'last_used',
    header: 'Last used',
    sortFn: sortByValue,
    sortUndefined: 'last',
    cell: ({ getValue }) => {
      const iso = getValue();
      return iso === undefined ? <span className="status">Never</span> : <When iso={iso} />;
    },
  }),
  helper.accessor('in_use_by', {
    id: 'in_use_by',
    header: 'In use by',
    enableSorting: false,
    cell: ({ getValue }) => <InUseBy users={getValue()} />,
  }),
]);

/** Every profile in a table that sorts (kept in the URL); a row opens the profile's page. */
export function ProfileList({ profiles }: { profiles: Profile[] }) {
  const pages = useMemo(() => [{ items: profiles }], [profiles]);
  const { table, sorting } = useListTable(useSearchParams(), {
    pages,
    getRowId: nameOf,
    sortColumns: SORT_COLUMNS,
    defaultSort: DEFAULT_SORT,
    columns,
    enableRowSelection: false,
  });
  return (
    <DataTable
      table={table}
      caption={`Profiles, sorted by ${sorting[0]?.id.replace('_', ' ')}`}
      rowHref={(p) => profileHref(p.name)}
      rowAttrs={(p) => ({ 'data-profile': p.name })}
      cellClass={{ size: 'nowrap', version: 'nowrap', last_used: 'nowrap' }}
    />
  );
}
