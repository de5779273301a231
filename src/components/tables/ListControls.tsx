import { useId, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { readDateRange, readSearch, setOrDelete } from './list-params.ts';

/**
 * Search and date range over a whole list (the server searches it, beyond the rows loaded), both
 * kept in the URL (?q=, ?from=, ?to=), plus whatever filter the page adds (`children`: the state or
 * outcome filter).
 */
export function ListControls({
  searchLabel,
  searchPlaceholder,
  children,
}: {
  searchLabel: string;
  searchPlaceholder: string;
  children?: ReactNode;
}) {
  const id = useId();
  const [params, setParams] = useSearchParams();
  const search = readSearch(params);
  const { from, to } = readDateRange(params);
  const set = (key: string, value: string) =>
    setParams(
      (p) => {
        setOrDelete(p, key, value);
        return p;
      },
      { replace: true },
    );
  const clear = () =>
    setParams(
      (p) => {
        for (const k of ['q', 'from', 'to']) p.delete(k);
        return p;
      },
      { replace: true },
    );

  return (
    <div className="list-controls">
      {children}
      <div className="list-control grow">
        <label htmlFor={`${id}-q`}>{searchLabel}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={search}
          placeholder={searchPlaceholder}
          onChange={(e) => set('q', e.target.value)}
          autoComplete="off"
        />
      </div>
      <div className="list-control">
        <label htmlFor={`${id}-from`}>Started from</label>
        <input
          id={`${id}-from`}
          type="date"
          value={from}
          max={to || undefined}
          onChange={(e) => set('from', e.target.value)}
        />
      </div>
      <div className="list-control">
        <label htmlFor={`${id}-to`}>to</label>
        <input
          id={`${id}-to`}
          type="date"
          value={to}
          min={from || undefined}
          onChange={(e) => set('to', e.target.value)}
        />
      </div>
      {(search || from || to) && (
        <button type="button" className="secondary small list-clear" onClick={clear}>
          Clear search and dates
        </button>
      )}
    </div>
  );
}

/** How many rows show (matching ones when searched) and "Load more" for the next page from the server (its cursor). */
export function ListFooter(props: {
  shown: number;
  noun: string;
  searched: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore(): void;
}) {
  return (
    <div className="list-footer">
      <p className="hint" role="status">
        {props.shown} {props.searched ? `matching ${props.noun}` : props.noun} shown
        {props.hasMore ? ', older ones with Load more' : ''}.
      </p>
      {props.hasMore && (
        <button type="button" className="secondary small" onClick={props.onLoadMore} disabled={props.loadingMore}>
          {props.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}
