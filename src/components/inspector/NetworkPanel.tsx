import { useId, useState } from 'react';
import { useDownloadSessionHar, useSessionHar } from '../../api/sessions/get-session-har.ts';
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

/**
 * An ended session's requests, read from the HAR the server wrote at its end: one row each
 * (method, URL, status, type, time, size); a row's URL button opens its headers and bodies below
 * the table. "Download HAR" saves the same file, fetched with the key.
 */
export function NetworkPanel({ sessionId }: { sessionId: string }) {
  const id = useId();
  const har = useSessionHar(sessionId);
  const download = useDownloadSessionHar();
  const [open, setOpen] = useState<number | null>(null);
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  const entries = har.data?.log.entries ?? [];
  const opened = open === null ? undefined : entries[open];
  const save = () =>
    download.mutate(sessionId, { onSuccess: (blob) => saveBlob(blob, `session-${sessionId.slice(0, 8)}.har`) });

  return (
    <div className="card">
      <div className="row spread">
        <h3 id={`${id}-title`}>Network</h3>
        {har.data && (
          <button type="button" className="secondary" onClick={save} disabled={download.isPending}>
            {download.isPending ? 'Preparing the HAR…' : 'Download HAR'}
          </button>
        )}
      </div>
      {download.isError && <ErrorNotice error={download.error} title="The HAR could not be downloaded." />}
      {har.isError && <ErrorNotice error={har.error} title="Could not load the session's requests." />}
      {har.isPending && <p className="status">Loading…</p>}
      {har.data === null && <p className="status">No network record was kept for this session.</p>}
      {har.data && entries.length === 0 && <p className="status">The session's pages made no requests.</p>}
      {har.data?.log.comment && <p className="hint">{har.data.log.comment}.</p>}
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
