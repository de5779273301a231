import { useCallback, useEffect, useRef } from 'react';
import type { ViewerInputMessage } from '../../contract/viewer.ts';
import { keepConnected, type ConnectionStatus } from './connection.ts';
import { useViewerConnection } from './useViewerConnection.ts';

/**
 * A screencast stream drawn on a canvas: JPEG frames over a WebSocket, each message an 8-byte
 * capture time followed by the image (server/sessions/display/screencast.ts). The canvas takes each
 * frame's own size, so its width and height are the frame's pixels (what input coordinates are in).
 * When frames come faster than they decode, only the newest waiting one is drawn. `send` passes an
 * input message on while the stream is open (the server reads it only from a controlling viewer).
 */
export function useScreencast(url: string, onStatusChange: ((status: ConnectionStatus) => void) | undefined) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const socketRef = useRef<WebSocket | null>(null);
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
        socketRef.current = socket;
        return () => {
          if (socketRef.current === socket) socketRef.current = null;
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

  const send = useCallback((input: ViewerInputMessage) => {
    const socket = socketRef.current;
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(input));
  }, []);

  return { canvasRef, status, send };
}
