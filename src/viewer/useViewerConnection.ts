import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ConnectionStatus } from './connection.ts';
import { toWebSocketUrl } from './streamUrl.ts';

/**
 * What both viewers keep about their stream: the WebSocket URL their `url` prop names (null when no
 * stream can be opened on it, then the status is `unavailable`), the status shown, and `report`,
 * which the long-lived connection calls to change it; the latest `onStatusChange` hears it without
 * the connection reopening when that callback changes.
 */
export function useViewerConnection(url: string, onStatusChange: ((status: ConnectionStatus) => void) | undefined) {
  const [connection, setConnection] = useState<ConnectionStatus>({ state: 'connecting' });
  const wsUrl = useMemo(() => {
    try {
      return toWebSocketUrl(url);
    } catch {
      return null; // not a URL a stream can be opened on
    }
  }, [url]);
  const onStatusRef = useRef(onStatusChange);
  useEffect(() => {
    onStatusRef.current = onStatusChange;
  });
  const report = useCallback((s: ConnectionStatus) => {
    setConnection(s);
    onStatusRef.current?.(s);
  }, []);
  const status: ConnectionStatus = wsUrl ? connection : { state: 'unavailable' };
  return { wsUrl, status, report };
}
