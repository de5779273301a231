import { describe, expect, it } from 'vitest';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import { shownRun, shownState } from './use-shown-session.ts';

describe('shownState', () => {
  it('believes an end from the cache or the stream at once', () => {
    expect(shownState({ data: { state: 'ended' }, isFetchedAfterMount: false }, false)).toBe('ended');
    expect(shownState({ data: { state: 'live' }, isFetchedAfterMount: true }, true)).toBe('ended');
    expect(shownState({ isFetchedAfterMount: false }, true)).toBe('ended');
  });
  it('is loading until the page has read the session itself, whatever the cache says', () => {
    expect(shownState({ data: { state: 'live' }, isFetchedAfterMount: false }, false)).toBe('loading');
    expect(shownState({ isFetchedAfterMount: false }, false)).toBe('loading');
    expect(shownState({ data: { state: 'live' }, isFetchedAfterMount: true }, false)).toBe('live');
    expect(shownState({ data: { state: 'starting' }, isFetchedAfterMount: true }, false)).toBe('starting');
  });
});

describe('shownRun', () => {
  const run = (completed: boolean) => ({ completed }) as RunStatusResponse;
  it('shows a cached run only once read again, unless it had completed', () => {
    expect(shownRun({ data: run(false), isFetchedAfterMount: false })).toBeUndefined();
    expect(shownRun({ data: run(false), isFetchedAfterMount: true })).toEqual(run(false));
    expect(shownRun({ data: run(true), isFetchedAfterMount: false })).toEqual(run(true));
    expect(shownRun({ isFetchedAfterMount: true })).toBeUndefined();
  });
});
