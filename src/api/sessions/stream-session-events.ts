import { useEffect, useState } from 'react';
import { SessionEvent } from '../../../contract/sessionEvents.ts';
import { apiFetch } from '../client.ts';
import { readSse } from '../sse.ts';
import { MAX_SHOWN_EVENTS } from './get-session-events.ts';

/**
 * `log` with `more` added: ordered by index, each event once. After a reconnect the stream sends
 * its history again, so events already shown arrive twice.
 */
export function mergeEvents(log: readonly SessionEvent[], more: readonly SessionEvent[]): SessionEvent[] {
  if (more.length === 0) return log as SessionEvent[];
  const last = log.at(-1)?.index ?? -1;
  const fresh = more.filter((e) => e.index > last);
  if (fresh.length === more.length && fresh.every((e, i) => i === 0 || e.index > fresh[i - 1]!.index))
    return [...log, ...fresh].slice(-MAX_SHOWN_EVENTS);
  const byIndex = new Map(log.map((e) => [e.index, e]));
  for (const e of more) byIndex.set(e.index, e);
  return [...byIndex.values()].sort((a, b) => a.index - b.index).slice(-MAX_SHOWN_EVENTS);
}

/**
 * GET /session/{id}/stream (logs_url, with the key in a header): each event as it is recorded,
 * history first. Resolves when the server ends the stream (after SessionEnded).
 */
export async function streamSessionEvents(
  sessionId: string,
  onEvents: (events: SessionEvent[]) => void,
  signal: AbortSignal,
): Promise<void> {
  const res = await apiFetch(`/session/${encodeURIComponent(sessionId)}/stream`, { signal });
  // Events arrive in bursts (a page's console, a step's start and end): shown a few times a second.
  let pending: SessionEvent[] = [];
  const flush = () => {
    if (pending.length) onEvents(pending);
    pending = [];
  };
  const timer = setInterval(flush, 200);
  try {
    for await (const { data } of readSse(res, signal)) {
      const parsed = SessionEvent.safeParse(JSON.parse(data));
      if (parsed.success) pending.push(parsed.data);
    }
  } finally {
    clearInterval(timer);
    flush();
  }
}

export interface LiveEvents {
  events: SessionEvent[];
  /** The last failure to read the stream (it is read again after a pause). */
  error: unknown;
  ended: boolean;
}

/** A live session's log as it happens; reconnects while `enabled`, stops once SessionEnded arrives. */
export function useSessionEventStream(sessionId: string, enabled: boolean): LiveEvents {
  const [state, setState] = useState<LiveEvents>({ events: [], error: null, ended: false });
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let ended = false;
    void (async () => {
      while (!abort.signal.aborted && !ended) {
        try {
          await streamSessionEvents(
            sessionId,
            (more) => {
              ended ||= more.some((e) => e.event === 'SessionEnded');
              setState((s) => ({ events: mergeEvents(s.events, more), error: null, ended: s.ended || ended }));
            },
            abort.signal,
          );
        } catch (error) {
          if (abort.signal.aborted) return;
          setState((s) => ({ ...s, error }));
        }
        if (!ended) await new Promise((r) => setTimeout(r, 2000));
      }
    })();
    return () => abort.abort();
  }, [sessionId, enabled]);
  return state;
}
