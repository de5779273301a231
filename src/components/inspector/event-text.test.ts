import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { describeEvent, isProblem, kindMatches, onTimeline } from './event-text.ts';

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
