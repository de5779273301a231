import { useEffect, useId, useImperativeHandle, useRef, type Ref } from 'react';
import type RFB from '@novnc/novnc';
import type { ScaleMode } from '../../contract/viewer.ts';
import { keepConnected, type ConnectionStatus } from './connection.ts';
import { LEAVE_KEYS_LABEL } from './leaveChord.ts';
import { focusAfter, watchLeaveChord } from './leaveKeys.ts';
import { loadRfb } from './loadRfb.ts';
import { toPageUrl } from './streamUrl.ts';
import { StatusLine } from './StatusLine.tsx';
import { useViewerConnection } from './useViewerConnection.ts';
import './viewer.css';
import { viewerRegionProps } from './viewerRegion.ts';

export interface VncViewerHandle {
  focus(): void;
  /** Send text to the remote clipboard (ignored when view-only). */
  pasteClipboard(text: string): void;
  sendCtrlAltDel(): void;
}

export interface VncViewerProps {
  /** The session's vnc_url: ws(s)://… or http(s)://… whose path upgrades to RFB. */
  url: string;
  viewOnly?: boolean;
  /** fit: scale to this element; none: 1:1, with scrollbars when the screen is larger. */
  scale?: ScaleMode;
  /** CSS colour around the remote screen. */
  background?: string;
  /** Text the remote side put on its clipboard. */
  onClipboard?: (text: string) => void;
  onStatusChange?: (status: ConnectionStatus) => void;
  /**
   * What the status line says until the stream first connects (else "Connecting…"): a page that
   * knows the session's state says it, rather than a bare "Connecting…" over a blank screen.
   */
  connectingText?: string;
  /** When no RFB connection can be made at all: show the URL's page in an iframe, or keep retrying. */
  fallback?: 'iframe' | 'none';
  /** Accessible name of the viewer. */
  label?: string;
  className?: string;
  ref?: Ref<VncViewerHandle>;
}

/** Failed first attempts before the iframe fallback (only when fallback is 'iframe'). */
const ATTEMPTS_BEFORE_FALLBACK = 3;

function applyScale(rfb: RFB, scale: ScaleMode) {
  rfb.scaleViewport = scale === 'fit';
  // Not clipped: noVNC's own screen element scrolls (overflow: auto), so 1:1 gets real scrollbars
  // instead of a clipped viewport that can only be dragged.
  rfb.clipViewport = false;
}

/**
 * noVNC makes its canvas focusable by script only (tabIndex -1). An interactive viewer is a Tab stop
 * (role application: keys go to the remote browser, described by the hint that says how to leave);
 * a view-only one is not, since no key would reach the browser and Tab would only be swallowed.
 */
function applyKeyboardAccess(rfb: RFB, screen: HTMLElement, viewOnly: boolean, hintId: string, label: string) {
  const canvas = screen.querySelector('canvas');
  if (!canvas) return;
  rfb.focusOnClick = !viewOnly;
  canvas.tabIndex = viewOnly ? -1 : 0;
  canvas.setAttribute('role', 'application');
  canvas.setAttribute('aria-label', `${label}: screen`);
  canvas.setAttribute('aria-describedby', hintId);
  if (viewOnly && document.activeElement === canvas) canvas.blur();
}

/** A live, interactive view of a session's browser through noVNC. */
export function VncViewer({
  url,
  viewOnly = false,
  scale = 'fit',
  background,
  onClipboard,
  onStatusChange,
  connectingText,
  fallback = 'iframe',
  label = 'Live browser',
  className,
  ref,
}: VncViewerProps) {
  const regionRef = useRef<HTMLDivElement>(null);
  const screenRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const rfbRef = useRef<RFB | null>(null);
  const { wsUrl, status, report } = useViewerConnection(url, onStatusChange);
  // Latest props for the long-lived connection, read without reconnecting when they change.
  const latest = useRef({ viewOnly, scale, background, onClipboard, label });
  useEffect(() => {
    latest.current = { viewOnly, scale, background, onClipboard, label };
  });

  useEffect(() => {
    const target = screenRef.current;
    if (!target) return;
    if (!wsUrl) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    loadRfb().then(
      (Rfb) => {
        if (cancelled) return;
        stop = keepConnected({
          url: wsUrl,
          giveUpAfter: fallback === 'iframe' ? ATTEMPTS_BEFORE_FALLBACK : Infinity,
          onStatus: report,
          open: (socket, connected) => {
            const rfb = new Rfb(target, socket, { shared: true });
            const { viewOnly: vo, scale: sc, background: bg, label: name } = latest.current;
            rfb.viewOnly = vo;
            applyScale(rfb, sc);
            applyKeyboardAccess(rfb, target, vo, hintId, name);
            if (bg) rfb.background = bg;
            rfb.addEventListener('connect', connected);
            rfb.addEventListener('clipboard', (e) => latest.current.onClipboard?.(e.detail.text));
            rfbRef.current = rfb;
            return () => {
              if (rfbRef.current === rfb) rfbRef.current = null;
              try {
                rfb.disconnect();
              } catch {
                // already disconnected by the closing socket
              }
            };
          },
        });
      },
      () => report({ state: 'unavailable' }),
    );
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [wsUrl, fallback, hintId, report]);

  useEffect(() => {
    const rfb = rfbRef.current;
    const screen = screenRef.current;
    if (!rfb || !screen) return;
    rfb.viewOnly = viewOnly;
    applyScale(rfb, scale);
    applyKeyboardAccess(rfb, screen, viewOnly, hintId, label);
    if (background) rfb.background = background;
  }, [viewOnly, scale, background, status.state, hintId, label]);

  // The documented way out of the remote keyboard: focus goes where Tab would have gone.
  useEffect(() => {
    const screen = screenRef.current;
    const region = regionRef.current;
    if (!screen || !region) return;
    return watchLeaveChord(screen, () => focusAfter(region, region));
  }, [status.state]);

  useImperativeHandle(
    ref,
    () => ({
      focus: () => rfbRef.current?.focus(),
      pasteClipboard: (text) => {
        if (!latest.current.viewOnly) rfbRef.current?.clipboardPasteFrom(text);
      },
      sendCtrlAltDel: () => {
        if (!latest.current.viewOnly) rfbRef.current?.sendCtrlAltDel();
      },
    }),
    [],
  );

  const showIframe = status.state === 'unavailable' && fallback === 'iframe';
  return (
    <div ref={regionRef} {...viewerRegionProps({ className, background, label, status, viewOnly })}>
      {showIframe ? (
        <iframe className="bd-viewer__iframe" src={toPageUrl(url)} title={label} />
      ) : (
        <div ref={screenRef} className="bd-viewer__screen" onClick={() => !viewOnly && rfbRef.current?.focus()} />
      )}
      {!showIframe && !viewOnly && (
        <p id={hintId} className="bd-viewer__keys-hint">
          Keys go to the remote browser. Press {LEAVE_KEYS_LABEL} to leave it.
        </p>
      )}
      <StatusLine status={status} connectingText={connectingText} />
    </div>
  );
}
