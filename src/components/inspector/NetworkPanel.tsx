import { useId, useState } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Har } from '../../../contract/har.ts';
import { useDownloadSessionHar, useSessionHar, useSessionHarSoFar } from '../../api/sessions/get-session-har.ts';
import { saveBlob } from '../../lib/save-blob.ts';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { NetworkDetails } from './NetworkDetails.tsx';
import { networkRowOf } from './network-rows.ts';
import './network.css';

/** Rows rendered at first and per "Show more": a session may have made thousands of requests. */
const ROWS_AT_ONCE = 200;
const COLUMNS = ['Method', 'URL', 'Status', 'Type', 'Time', 'Size'] as const;
/** Columns of numbers, aligned right. */
const NUMERIC = new Set<string>(['Time', 'Size']);

/** An ended session's requests, read from the HAR the server wrote at its end. */
export function NetworkPanel({ sessionId }: { sessionId: string }) {
  return <NetworkRecord sessionId={sessionId} har={useSessionHar(sessionId)} />;
}

/** A live session's requests so far, read when the tab opens and again on Refresh. */
export function LiveNetworkPanel({ sessionId }: { sessionId: string }) {
  return <NetworkRecord sessionId={sessionId} har={useSessionHarSoFar(sessionId)} live />;
}

/**
 * A session's requests, one row each (method, URL, status, type, time, size); a row's URL button
 * opens its headers and bodies below the table. "Download HAR" saves the same record, fetched with
 * the key. `live`: the record goes on growing, so it says when it was read and reads it again on Refresh.
 */
function NetworkRecord({
  sessionId,
  har,
  live = false,
}: {
  sessionId: string;
  har: UseQueryResult<Har | null>;
  live?: boolean;
}) {
  const id = useId();
  const download = useDownloadSessionHar();
  const [open, setOpen] = useState<number | null>(null);
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  const entries = har.data?.log.entries ?? [];
  const opened = open === null ? undefined : entries[open];
  const save = () =>
    download.mutate(sessionId, { onSuccess: (blob) => saveBlob(blob, `session-${sessionId.slice(0, 8)}.har`) });
  // A snapshot's comment says it is one; the page says when it was read instead.
  const comment = live ? undefined : har.data?.log.comment;

  return (
    <div className="card">
      <div className="row spread">
        <h3 id={`${id}-title`}>Network</h3>
        <div className="row">
          {live && (
            <button type="button" className="secondary" onClick={() => void har.refetch()} disabled={har.isFetching}>
              {har.isFetching ? 'Reading…' : 'Refresh'}
            </button>
          )}
          {har.data && (
            <button type="button" className="secondary" onClick={save} disabled={download.isPending}>
              {download.isPending ? 'Preparing the HAR…' : live ? 'Download HAR so far' : 'Download HAR'}
            </button>
          )}
        </div>
      </div>
      {live && har.isSuccess && (
        <p className="hint" role="status">
          Requests up to {new Date(har.dataUpdatedAt).toLocaleTimeString()}: the session goes on; Refresh reads the
          newer ones.
        </p>
      )}
      {download.isError && <ErrorNotice error={download.error} title="The HAR could not be downloaded." />}
      {har.isError && <ErrorNotice error={har.error} title="Could not load the session's requests." />}
      {har.isPending && <p className="status">Loading…</p>}
      {har.data === null && (
        <p className="status">
          {live ? 'Nothing recorded yet: Refresh in a moment.' : 'No network record was kept for this session.'}
        </p>
      )}
      {har.data && entries.length === 0 && (
        <p className="status">{live ? 'No requests yet.' : "The session's pages made no requests."}</p>
      )}
      {comment && <p className="hint">{comment}.</p>}
      {entries.length > 0 && (
        <>
          {/* The table scrolls in its own box (a phone is narrower than six columns); focusable for the keyboard. */}
          <div className="network-table" role="region" aria-labelledby={`${id}-title`} tabIndex={0}>
            <table>
              <caption className="visually-hidden">
                Requests the session's pages made; a URL opens its headers and bodies
              </caption>
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th key={c} scope="col" className={NUMERIC.has(c) ? 'num' : undefined}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {entries.slice(0, shown).map((e, i) => {
                  const row = networkRowOf(e);
                  const isOpen = open === i;
                  return (
                    <tr key={i} className={[row.problem && 'problem', isOpen && 'selected'].filter(Boolean).join(' ')}>
                      <td>{row.method}</td>
                      <td>
                        <button
                          type="button"
                          className="link network-url"
                          title={row.url}
                          aria-expanded={isOpen}
                          aria-controls={isOpen ? `${id}-details` : undefined}
                          onClick={() => setOpen(isOpen ? null : i)}
                        >
                          {row.name}
                        </button>
                      </td>
                      <td>{row.status}</td>
                      <td>{row.type}</td>
                      <td className="num">{row.time}</td>
                      <td className="num">{row.size}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          {entries.length > shown && (
            <div className="row spread">
              <p className="hint">
                {shown} of {entries.length} requests listed.
              </p>
              <button type="button" className="secondary" onClick={() => setShown(shown + ROWS_AT_ONCE)}>
                Show {Math.min(ROWS_AT_ONCE, entries.length - shown)} more
              </button>
            </div>
          )}
          {opened && <NetworkDetails entry={opened} id={`${id}-details`} />}
        </>
      )}
    </div>
  );
}
