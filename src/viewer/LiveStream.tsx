import type { ConnectionStatus } from './connection.ts';
import { StatusLine } from './StatusLine.tsx';
import { useScreencast } from './useScreencast.ts';
import './viewer.css';

export interface LiveStreamProps {
  /** The session's livestream_url: ws(s)://… or http(s)://… whose path upgrades to the frame stream. */
  url: string;
  background?: string;
  onStatusChange?: (status: ConnectionStatus) => void;
  label?: string;
  className?: string;
}

/** A watch-only view of the session's active tab: its screencast drawn on a canvas. */
export function LiveStream({
  url,
  background,
  onStatusChange,
  label = 'Live stream of the browser',
  className,
}: LiveStreamProps) {
  const { canvasRef, status } = useScreencast(url, onStatusChange);
  return (
    <div
      className={`bd-viewer${className ? ` ${className}` : ''}`}
      style={background ? { background } : undefined}
      role="region"
      aria-label={label}
      data-state={status.state}
    >
      <canvas ref={canvasRef} className="bd-viewer__frame" role="img" aria-label={label} />
      <StatusLine status={status} />
    </div>
  );
}
