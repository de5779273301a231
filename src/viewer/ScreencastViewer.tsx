import { useEffect, useId, useRef } from 'react';
import { MAX_INPUT_TEXT } from '../../contract/viewer.ts';
import type { ConnectionStatus } from './connection.ts';
import { LEAVE_KEYS_LABEL } from './leaveChord.ts';
import { focusAfter, watchLeaveChord } from './leaveKeys.ts';
import { framePoint, keyInput, pointerInput } from './screencastInput.ts';
import { StatusLine } from './StatusLine.tsx';
import { useScreencast } from './useScreencast.ts';
import './viewer.css';
import { viewerRegionProps } from './viewerRegion.ts';

export interface ScreencastViewerProps {
  /** A context session's vnc_url: its page upgrades to a screencast of the session's own tabs that takes input. */
  url: string;
  viewOnly?: boolean;
  background?: string;
  onStatusChange?: (status: ConnectionStatus) => void;
  /** What the status line says until the stream first connects (else "Connecting…"). */
  connectingText?: string;
  label?: string;
  className?: string;
}

/**
 * The live view of a session that has no display of its own (a context session): the screencast of
 * its active tab, and, unless view-only, the mouse, wheel, keys and pasted text sent back to that tab.
 * The remote screen is a Tab stop while it takes input; Ctrl+Alt+Shift gives the keyboard back.
 */
export function ScreencastViewer({
  url,
  viewOnly = false,
  background,
  onStatusChange,
  connectingText,
  label = 'Live browser',
  className,
}: ScreencastViewerProps) {
  const regionRef = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const { canvasRef, status, send } = useScreencast(url, onStatusChange);

  useEffect(() => {
    const canvas = canvasRef.current;
    const region = regionRef.current;
    if (!canvas || !region || viewOnly) return;
    const at = (e: MouseEvent) => framePoint(e.clientX, e.clientY, canvas.getBoundingClientRect(), canvas);
    // Moves are sent at most once an animation frame: the newest position is all that matters.
    let move: MouseEvent | undefined;
    let moveFrame = 0;
    const sendMove = () => {
      moveFrame = 0;
      const p = move && at(move);
      const input = move && p ? pointerInput('move', move, p) : null;
      if (input) send(input);
    };
    const onMove = (e: MouseEvent) => {
      move = e;
      moveFrame ||= requestAnimationFrame(sendMove);
    };
    const onButton = (e: MouseEvent) => {
      const p = at(e);
      const input = p && pointerInput(e.type === 'mousedown' ? 'down' : 'up', e, p);
      if (!input) return;
      if (e.type === 'mousedown') canvas.focus();
      e.preventDefault();
      send(input);
    };
    const onWheel = (e: WheelEvent) => {
      const p = at(e);
      if (!p) return;
      e.preventDefault();
      // Lines and pages as pixels, as Chromium's own wheel does.
      const unit = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1;
      const clamp = (v: number) => Math.max(-10_000, Math.min(10_000, v * unit));
      send({ t: 'wheel', ...p, deltaX: clamp(e.deltaX), deltaY: clamp(e.deltaY), modifiers: 0 });
    };
    const onKey = (e: KeyboardEvent) => {
      const input = keyInput(e.type === 'keydown' ? 'down' : 'up', e);
      if (!input) return;
      // Every key is the remote page's (Tab and Escape too): the leave chord is the way out.
      e.preventDefault();
      send(input);
    };
    const onPaste = (e: ClipboardEvent) => {
      const text = e.clipboardData?.getData('text/plain') ?? '';
      e.preventDefault();
      for (let i = 0; i < text.length; i += MAX_INPUT_TEXT)
        send({ t: 'text', text: text.slice(i, i + MAX_INPUT_TEXT) });
    };
    const noMenu = (e: Event) => e.preventDefault();
    canvas.addEventListener('mousemove', onMove);
    canvas.addEventListener('mousedown', onButton);
    canvas.addEventListener('mouseup', onButton);
    canvas.addEventListener('wheel', onWheel, { passive: false });
    canvas.addEventListener('keydown', onKey);
    canvas.addEventListener('keyup', onKey);
    canvas.addEventListener('paste', onPaste);
    canvas.addEventListener('contextmenu', noMenu);
    const stopChord = watchLeaveChord(region, () => focusAfter(region, region));
    return () => {
      cancelAnimationFrame(moveFrame);
      stopChord();
      canvas.removeEventListener('mousemove', onMove);
      canvas.removeEventListener('mousedown', onButton);
      canvas.removeEventListener('mouseup', onButton);
      canvas.removeEventListener('wheel', onWheel);
      canvas.removeEventListener('keydown', onKey);
      canvas.removeEventListener('keyup', onKey);
      canvas.removeEventListener('paste', onPaste);
      canvas.removeEventListener('contextmenu', noMenu);
    };
  }, [canvasRef, send, viewOnly]);

  return (
    <div
      ref={regionRef}
      {...viewerRegionProps({ className, background, label, status, viewOnly })}
      data-kind="screencast"
    >
      <canvas
        ref={canvasRef}
        className="bd-viewer__frame"
        // Interactive: a Tab stop whose keys go to the remote page; view-only: a picture.
        tabIndex={viewOnly ? undefined : 0}
        role={viewOnly ? 'img' : 'application'}
        aria-label={viewOnly ? label : `${label}: screen`}
        aria-describedby={viewOnly ? undefined : hintId}
      />
      {!viewOnly && (
        <p id={hintId} className="bd-viewer__keys-hint">
          Keys go to the remote browser. Press {LEAVE_KEYS_LABEL} to leave it.
        </p>
      )}
      <StatusLine status={status} connectingText={connectingText} />
    </div>
  );
}
