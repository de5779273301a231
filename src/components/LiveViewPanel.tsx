import { Suspense, useId, useRef, useState } from 'react';
import type { SessionIsolation } from '../../contract/isolation.ts';
import type { SessionClients } from '../../contract/sessions.ts';
import { ScaleMode } from '../../contract/viewer.ts';
import { LazyScreencastViewer, LazyVncViewer } from './LazyViewers.tsx';
import { TabList } from './TabList.tsx';
import type { VncViewerHandle } from '../viewer/index.ts';
import { LEAVE_KEYS_LABEL } from '../viewer/leaveChord.ts';
import { Watchers } from './Watchers.tsx';

type Tab = 'vnc' | 'live';

/**
 * The session's browser: interactive noVNC on one tab, the view-only livestream on the other. A
 * context session has no display of its own: its interactive view is a screencast of its own pages
 * that takes input (no scaling choice, no remote clipboard: paste into the screen sends text).
 */
export function LiveViewPanel({
  vncUrl,
  livestreamUrl,
  clients,
  isolation = 'browser',
}: {
  vncUrl?: string;
  livestreamUrl?: string;
  /** Who is connected now (GET /api/sessions/{id}), shown beside the title. */
  clients?: SessionClients | null;
  isolation?: SessionIsolation;
}) {
  const screencast = isolation === 'context';
  const [tab, setTab] = useState<Tab>(vncUrl ? 'vnc' : 'live');
  const [liveOpened, setLiveOpened] = useState(!vncUrl);
  const [scale, setScale] = useState<ScaleMode>('fit');
  const [viewOnly, setViewOnly] = useState(false);
  const [remoteClip, setRemoteClip] = useState('');
  const [toSend, setToSend] = useState('');
  const viewer = useRef<VncViewerHandle>(null);
  const frame = useRef<HTMLDivElement>(null);
  const id = useId();
  const choose = (t: Tab) => {
    setTab(t);
    if (t === 'live') setLiveOpened(true);
  };
  const tabs = [
    { key: 'vnc' as const, label: screencast ? 'Interactive' : 'Interactive (noVNC)', url: vncUrl },
    { key: 'live' as const, label: 'Livestream', url: livestreamUrl },
  ].filter((t) => t.url);

  return (
    // The screen first: one compact bar of controls over it, the page's other information below.
    <section className="live-view" aria-labelledby={`${id}-title`}>
      <div className="live-bar">
        <h2 id={`${id}-title`} className="visually-hidden">
          Live browser
        </h2>
        <TabList
          label="Live view"
          idPrefix={id}
          tabs={tabs}
          selected={tab}
          onSelect={choose}
          className="tabs live-tabs"
        />
        {vncUrl && tab === 'vnc' && (
          <>
            {!screencast && (
              <span className="live-bar-item">
                <label htmlFor={`${id}-scale`}>Scale</label>
                <select id={`${id}-scale`} value={scale} onChange={(e) => setScale(ScaleMode.parse(e.target.value))}>
                  <option value="fit">Fit to the frame</option>
                  <option value="none">None (1:1, scroll)</option>
                </select>
              </span>
            )}
            <label className="check live-bar-item">
              <input type="checkbox" checked={viewOnly} onChange={(e) => setViewOnly(e.target.checked)} /> View only
            </label>
            <button type="button" className="secondary small" onClick={() => void frame.current?.requestFullscreen?.()}>
              Fullscreen
            </button>
          </>
        )}
        {/* This page's own views: the noVNC one, and the livestream once its tab was opened. */}
        <Watchers clients={clients} own={(vncUrl ? 1 : 0) + (livestreamUrl && liveOpened ? 1 : 0)} />
        {vncUrl && tab === 'vnc' && (
          <p className="hint live-hint">
            {viewOnly
              ? 'View only: the keyboard and mouse do not reach the browser.'
              : `Tab to the screen (or click it) to type in the remote browser; ${LEAVE_KEYS_LABEL} gives the keyboard back.`}
          </p>
        )}
      </div>
      {vncUrl && (
        <div
          role="tabpanel"
          className="live-panel"
          id={`${id}-panel-vnc`}
          aria-labelledby={`${id}-tab-vnc`}
          hidden={tab !== 'vnc'}
        >
          <div ref={frame} className="viewer-host">
            <Suspense fallback={<p className="status">Loading the viewer…</p>}>
              {screencast ? (
                <LazyScreencastViewer
                  url={vncUrl}
                  viewOnly={viewOnly}
                  className="viewer-frame above-fold"
                  label="Live browser (interactive)"
                />
              ) : (
                <LazyVncViewer
                  ref={viewer}
                  url={vncUrl}
                  scale={scale}
                  viewOnly={viewOnly}
                  onClipboard={setRemoteClip}
                  className="viewer-frame above-fold"
                  label="Live browser (interactive)"
                />
              )}
            </Suspense>
          </div>
          {!screencast && (
            <details className="live-clipboard">
              <summary>Clipboard</summary>
              <div className="field">
                <label htmlFor={`${id}-remote-clip`}>Copied in the remote browser</label>
                <textarea
                  id={`${id}-remote-clip`}
                  readOnly
                  rows={2}
                  value={remoteClip}
                  placeholder="Text copied in the session appears here."
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-send-clip`}>Send to the remote clipboard</label>
                <textarea id={`${id}-send-clip`} rows={2} value={toSend} onChange={(e) => setToSend(e.target.value)} />
              </div>
              <button
                type="button"
                className="secondary small"
                disabled={viewOnly || !toSend}
                onClick={() => viewer.current?.pasteClipboard(toSend)}
              >
                Send text
              </button>
              {viewOnly && <p className="hint">Turn off view only to send text.</p>}
            </details>
          )}
        </div>
      )}
      {livestreamUrl && (
        <div
          role="tabpanel"
          className="live-panel"
          id={`${id}-panel-live`}
          aria-labelledby={`${id}-tab-live`}
          hidden={tab !== 'live'}
        >
          {liveOpened && (
            <iframe
              className="viewer-frame above-fold"
              src={livestreamUrl}
              title="Livestream of the browser (view only)"
            />
          )}
        </div>
      )}
    </section>
  );
}
