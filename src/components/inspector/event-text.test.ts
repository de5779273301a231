import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { describeEvent, isProblem, kindMatches, onTimeline, runEndOf } from './event-text.ts';

const call = (ok: boolean, message: string): SessionEvent => ({
  index: 3,
  session_id: '00000000-0000-4000-8000-000000000000',
  created_at: '2026-11-25T18:00:00.000Z',
  event: 'AgentToolCall',
  tool: 'browser_click',
  ok,
  message,
  duration: 120,
});

describe('an agent tool call in the inspector', () => {
  it('reads as what the agent did, or why it failed, and shows on the timeline among the steps', () => {
    expect(describeEvent(call(true, 'Clicked "Send order" (k3f9ab-e5)'))).toBe(
      'Agent: browser_click: Clicked "Send order" (k3f9ab-e5)',
    );
    expect(describeEvent(call(false, 'ref e1 is stale'))).toBe('Agent: browser_click failed: ref e1 is stale');
    expect(onTimeline(call(true, 'x'))).toBe(true);
    expect(kindMatches('steps', call(true, 'x'))).toBe(true);
    expect(isProblem(call(false, 'x'))).toBe(true);
    expect(isProblem(call(true, 'x'))).toBe(false);
  });
});

const profileSaved = (saved: boolean): SessionEvent => ({
  index: 9,
  session_id: '00000000-0000-4000-8000-000000000000',
  created_at: '2026-11-25T18:00:00.000Z',
  event: 'ProfileSaved',
  profile: 'shop-login',
  saved,
  version: saved ? 4 : null,
  size: saved ? 2048 : null,
  ...(saved ? {} : { reason: 'the browser crashed' }),
});

describe('a profile saved (or not) when the session ended', () => {
  it('names the profile, its new version and size, or why nothing was saved, which is a problem', () => {
    expect(describeEvent(profileSaved(true))).toBe('Saved to profile shop-login (version 4, 2.0 KB)');
    expect(describeEvent(profileSaved(false))).toBe('Profile shop-login not saved: the browser crashed');
    expect(isProblem(profileSaved(false))).toBe(true);
    expect(isProblem(profileSaved(true))).toBe(false);
    expect(kindMatches('session', profileSaved(true))).toBe(true);
  });
});

const request = (extra: Partial<Extract<SessionEvent, { event: 'NetworkRequest' }>>): SessionEvent => ({
  index: 12,
  session_id: '00000000-0000-4000-8000-000000000000',
  created_at: '2026-11-25T18:00:00.000Z',
  event: 'NetworkRequest',
  method: 'GET',
  url: 'https://shop.example/api/cart',
  status: 200,
  type: 'Fetch',
  duration: 41.6,
  ...extra,
});

describe('a network request in the inspector', () => {
  it('reads as method, URL and outcome, under Network; a failure or an error status is a problem', () => {
    expect(describeEvent(request({}))).toBe('GET https://shop.example/api/cart → 200 (Fetch, 42 ms)');
    expect(describeEvent(request({ size: 2150 }))).toBe(
      'GET https://shop.example/api/cart → 200 (Fetch, 42 ms, 2.1 KB)',
    );
    expect(describeEvent(request({ status: null, failed: 'net::ERR_CONNECTION_REFUSED', unlogged: 3 }))).toBe(
      'GET https://shop.example/api/cart → failed: net::ERR_CONNECTION_REFUSED (Fetch, 42 ms) (3 requests before it not logged)',
    );
    expect(kindMatches('network', request({}))).toBe(true);
    expect(isProblem(request({}))).toBe(false);
    expect(isProblem(request({ status: 404 }))).toBe(true);
    expect(isProblem(request({ status: null, failed: 'net::ERR_FAILED' }))).toBe(true);
  });
});

const resumed = (answer?: string): SessionEvent => ({
  index: 5,
  session_id: '00000000-0000-4000-8000-000000000000',
  created_at: '2026-11-25T18:00:00.000Z',
  event: 'FlowResumed',
  pause_key: 'k',
  pause_type: 'internal',
  ...(answer !== undefined ? { answer } : {}),
});

describe('a resumed run in the inspector', () => {
  it("shows the person's answer when a message resumed it", () => {
    expect(describeEvent(resumed('Ada Lovelace'))).toBe('Resumed with the answer: Ada Lovelace');
    expect(describeEvent(resumed())).toBe('Resumed');
  });
});

describe("a run's end in its session's log", () => {
  const base = { session_id: '00000000-0000-4000-8000-000000000000', created_at: '2026-11-28T07:00:00.000Z' };
  const step = (index: number, n: number, ok: boolean) =>
    ({
      ...base,
      index,
      event: 'ToolCallCompleted',
      step: n,
      action: 'click',
      result: ok ? { ok } : { ok, error: 'Timed out after waiting 5000ms' },
      duration: 5,
      tool_name: 'click',
      tool: {},
      content: null,
    }) as unknown as SessionEvent;
  const runError = {
    ...base,
    index: 3,
    event: 'RunError',
    message: 'Step 2 (click #x): no element matched',
    outputs: {},
    content: '',
    error: '',
  } as SessionEvent;
  const ended = { ...base, index: 4, event: 'SessionEnded', reason: 'completed' } as SessionEvent;
  const log = [step(1, 1, true), step(2, 2, false), runError, ended];

  it("says how the run ended on the last line, and leaves the failed step's why to our message", () => {
    const end = runEndOf(log);
    expect(end).toEqual({ outcome: 'failed', failedStep: 2 });
    expect(describeEvent(ended, end)).toBe('Session ended: its run failed at step 2');
    expect(describeEvent(log[1]!, end)).toBe('Step 2 (click) failed');
    // Without the log's context (or a session without a run), as recorded.
    expect(describeEvent(ended)).toBe('Session ended (completed)');
    expect(describeEvent(log[1]!)).toBe('Step 2 (click) failed: Timed out after waiting 5000ms');
  });

  it('a run that succeeded, and a session stopped from outside, say so', () => {
    const done = {
      ...base,
      index: 3,
      event: 'RunCompleted',
      message: 'All 1 steps succeeded',
      outputs: {},
      content: '',
      succeeded: true,
    } as SessionEvent;
    expect(describeEvent(ended, runEndOf([step(1, 1, true), done, ended]))).toBe('Session ended: its run succeeded');
    const stopped = { ...ended, reason: 'stopped' } as SessionEvent;
    expect(describeEvent(stopped, runEndOf([...log.slice(0, 3), stopped]))).toBe('Session ended (stopped)');
    expect(runEndOf([step(1, 1, true)])).toBeUndefined();
  });
});
