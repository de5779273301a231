import { useEffect, useRef } from 'react';
import { keepConnected, type ConnectionStatus } from './connection.ts';
import { StatusLine } from './StatusLine.tsx';
import { useViewerConnection } from './useViewerConnection.ts';
import './viewer.css';

export interface LiveStreamProps {
  /** The session's livestream_url: ws(s)://… or http(s)://… whose path upgrades to the frame stream. */
  url: string;
  background?: string;
  onStatusChange?: (status: ConnectionStatus) => void;
  label?: string;
  className?: string;
}

/**
 * A watch-only view of the session's active tab: JPEG frames over a WebSocket, each message an
 * 8-byte capture time followed by the image (server/sessions/display/screencast.ts), drawn on a canvas.
 * When frames come faster than they decode, only the newest waiting one is drawn.
 */
export function LiveStream({
  url,
  background,
  onStatusChange,
  label = 'Live stream of the browser',
  className,
}: LiveStreamProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const { wsUrl, status, report } = useViewerConnection(url, onStatusChange);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    if (!wsUrl) return;
    let frames = 0;
    let waiting: ArrayBuffer | undefined;
    let decoding = false;
    let stopped = false;

    const draw = async () => {
      decoding = true;
      while (waiting && !stopped) {
        const data = waiting;
        waiting = undefined;
        try {
          const bitmap = await createImageBitmap(new Blob([data.slice(8)], { type: 'image/jpeg' }));
          if (canvas.width !== bitmap.width) canvas.width = bitmap.width;
          if (canvas.height !== bitmap.height) canvas.height = bitmap.height;
          ctx.drawImage(bitmap, 0, 0);
          bitmap.close();
          canvas.dataset.frames = String(++frames);
          canvas.dataset.capturedAt = String(new DataView(data).getFloat64(0));
        } catch {
          // a damaged frame: the next one replaces it
        }
      }
      decoding = false;
    };

    const stop = keepConnected({
      url: wsUrl,
      onStatus: report,
      open: (socket, connected) => {
        const onMessage = (e: MessageEvent) => {
          if (!(e.data instanceof ArrayBuffer) || e.data.byteLength <= 8) return;
          connected();
          waiting = e.data;
          if (!decoding) void draw();
        };
        socket.addEventListener('open', connected);
        socket.addEventListener('message', onMessage);
        return () => {
          socket.removeEventListener('open', connected);
          socket.removeEventListener('message', onMessage);
        };
      },
    });
    return () => {
      stopped = true;
      stop();
    };
  }, [wsUrl, report]);

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
