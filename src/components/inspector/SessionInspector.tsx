import { useId, useRef } from 'react';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { recordingDownloadUrl, useDownloadSessionFiles } from '../../api/sessions/download-session-files.ts';
import { useSessionEvents } from '../../api/sessions/get-session-events.ts';
import { useSessionStatus } from '../../api/sessions/get-session-status.ts';
import { useSessionStore } from '../../api/sessions/get-session-store.ts';
import { CopyButton } from '../CopyButton.tsx';
import { ErrorNotice } from '../ErrorNotice.tsx';
import { Tabs } from '../Tabs.tsx';
import { formatBytes } from '../../lib/format.ts';
import { saveBlob } from '../../lib/save-blob.ts';
import { EventLog } from './EventLog.tsx';
import { NetworkPanel } from './NetworkPanel.tsx';
import { describeEvent, isProblem, onTimeline, runEndOf } from './event-text.ts';

/**
 * Seconds from the session's start (its first event, when the recording starts too) to `e`, at the
 * moment it was recorded. A step's "done" entry is when it finished: placed at its start, a paused
 * step's "Step 2 done" read 0:01 below "Resumed" at 0:31, out of order.
 */
const offsetOf = (e: SessionEvent, start: number) => Math.max(0, (Date.parse(e.created_at) - start) / 1000);
const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * What an ended session left: its recording with a timeline beside it (clicking an entry seeks the
 * video), the files it downloaded, its log filtered by kind and its requests (HAR) in tabs, and its storage state to copy.
 */
export function SessionInspector({ sessionId }: { sessionId: string }) {
  const id = useId();
  const status = useSessionStatus(sessionId);
  const events = useSessionEvents(sessionId);
  const store = useSessionStore(sessionId, status.isSuccess);
  const video = useRef<HTMLVideoElement>(null);
  const log = events.data ?? [];
  const start = log[0] ? Date.parse(log[0].created_at) : 0;
  const runEnd = runEndOf(log);
  const recording = status.data?.recording_url ?? null;
  const files = status.data?.file_metadata ?? [];
  const zip = useDownloadSessionFiles();
  const short = sessionId.slice(0, 8);
  const downloadAll = () =>
    zip.mutate(sessionId, { onSuccess: (blob) => saveBlob(blob, `session-${short}-files.zip`) });
  const seek = (e: SessionEvent) => {
    const v = video.current;
    if (!v) return;
    v.currentTime = offsetOf(e, start);
    v.focus();
  };

  return (
    <section className="inspector" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>What happened</h2>
      {events.isError && <ErrorNotice error={events.error} title="Could not load the session's log." />}
      <div className="inspector-grid">
        <div className="card">
          <div className="row spread">
            <h3>Recording</h3>
            {/* Signed: the link works without the key, and the browser saves it as a file. */}
            {recording && (
              <a className="button secondary" href={recordingDownloadUrl(recording)} download={`session-${short}.mp4`}>
                Download recording
              </a>
            )}
          </div>
          {recording ? (
            <video
              ref={video}
              className="recording"
              src={recording}
              controls
              preload="metadata"
              aria-label="Recording of the session's screen"
            />
          ) : (
            <p className="status">{status.isPending ? 'Loading…' : 'No recording was kept for this session.'}</p>
          )}
        </div>
        <div className="card">
          <h3 id={`${id}-timeline`}>Timeline</h3>
          {log.length === 0 && <p className="status">{events.isPending ? 'Loading…' : 'Nothing was logged.'}</p>}
          <ol className="timeline" aria-labelledby={`${id}-timeline`}>
            {log.filter(onTimeline).map((e) => (
              <li key={e.index} className={isProblem(e) ? 'problem' : undefined}>
                <button
                  type="button"
                  className="link"
                  onClick={() => seek(e)}
                  disabled={!recording}
                  title={recording ? 'Show this moment in the recording' : undefined}
                >
                  <span className="time">{clock(offsetOf(e, start))}</span>{' '}
                  <span className="clamp-3" title={describeEvent(e, runEnd)}>
                    {describeEvent(e, runEnd)}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        </div>
      </div>

      <div className="card">
        <div className="row spread">
          <h3>Downloads</h3>
          {files.length > 0 && (
            <button type="button" className="secondary" onClick={downloadAll} disabled={zip.isPending}>
              {zip.isPending
                ? 'Preparing the zip…'
                : `Download all (${files.length === 1 ? '1 file' : `${files.length} files`}, zip)`}
            </button>
          )}
        </div>
        {zip.isError && <ErrorNotice error={zip.error} title="The files could not be downloaded." />}
        {files.length === 0 ? (
          <p className="status">The session downloaded no files.</p>
        ) : (
          <ul className="files">
            {files.map((f) => (
              <li key={f.filename}>
                <a href={f.download_url} download={f.filename} className="wrap-anywhere">
                  {f.filename}
                </a>{' '}
                <span className="hint">{formatBytes(f.file_size)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {/* The requests load only when their tab is first opened: a HAR may be megabytes. */}
      <Tabs
        label="The session's log and requests"
        tabs={[
          { key: 'log', label: 'Log', panel: () => <EventLog events={log} /> },
          { key: 'network', label: 'Network', panel: () => <NetworkPanel sessionId={sessionId} /> },
        ]}
      />

      <div className="card">
        <h3>Storage state</h3>
        {store.data ? (
          <details>
            <summary>
              Cookies and localStorage when the session ended (Playwright storage state; pass it as session_data to
              start logged in)
            </summary>
            <div className="row" style={{ margin: '0.5rem 0' }}>
              <CopyButton text={JSON.stringify(store.data)} label="Copy storage state" />
            </div>
            <pre className="scroll-block">{JSON.stringify(store.data, null, 2)}</pre>
          </details>
        ) : (
          <p className="status">{store.isPending ? 'Loading…' : 'No storage state was kept for this session.'}</p>
        )}
        {store.isError && <ErrorNotice error={store.error} title="Could not load the storage state." />}
      </div>
    </section>
  );
}
