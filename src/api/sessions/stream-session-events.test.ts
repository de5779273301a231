import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { mergeEvents } from './stream-session-events.ts';

const ev = (index: number, text = `line ${index}`): SessionEvent => ({
  index,
  session_id: '00000000-0000-4000-8000-000000000000',
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(),
  event: 'ConsoleMessage',
  level: 'log',
  text,
});

describe('mergeEvents', () => {
  it('appends new events in order', () => {
    expect(mergeEvents([ev(0), ev(1)], [ev(2), ev(3)]).map((e) => e.index)).toEqual([0, 1, 2, 3]);
  });

  it('keeps each event once when a reconnect sends the history again', () => {
    const merged = mergeEvents([ev(0), ev(1), ev(2)], [ev(0), ev(1), ev(2), ev(3)]);
    expect(merged.map((e) => e.index)).toEqual([0, 1, 2, 3]);
  });

  it('orders events that arrive out of order by their index', () => {
    expect(mergeEvents([ev(0), ev(3)], [ev(2), ev(1)]).map((e) => e.index)).toEqual([0, 1, 2, 3]);
  });

  it('returns the same log when nothing arrived', () => {
    const log = [ev(0)];
    expect(mergeEvents(log, [])).toBe(log);
  });
});
