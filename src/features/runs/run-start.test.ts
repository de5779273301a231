import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { runStart } from './run-start.ts';

const SESSION = '11111111-2222-4333-8444-555555555555';
const WORKFLOW = '66666666-2222-4333-8444-555555555555';
let index = 0;
/** An event as the stream sends it, `s` seconds into the run. */
const at = (s: number, e: Record<string, unknown>) =>
  ({
    index: index++,
    session_id: SESSION,
    created_at: new Date(Date.UTC(2026, 10, 28, 7, 0, s)).toISOString(),
    ...e,
  }) as SessionEvent;
const ms = (s: number) => Date.UTC(2026, 10, 28, 7, 0, s);

const started = (s: number, step: number, action: string, params: Record<string, unknown> = {}) =>
  at(s, { event: 'ToolCallStarted', step, action, params, tool_name: action, tool: {} });
const completed = (s: number, step: number, action: string) =>
  at(s, { event: 'ToolCallCompleted', step, action, result: { ok: true }, duration: 1, tool_name: action, tool: {} });

describe('runStart', () => {
  it('a run not queued: its browser started before, then it connects and opens its first page', () => {
    const events = [
      at(0, { event: 'SessionStarted', workflow_id: WORKFLOW }),
      at(1, { event: 'RunStarted', workflow_id: WORKFLOW, total_actions: 3 }),
      started(15, 1, 'setViewport'),
      completed(15, 1, 'setViewport'),
      started(16, 2, 'navigate', { url: 'https://shop.example/' }),
    ];
    const start = runStart(events);
    expect(start.over).toBe(false);
    expect(start.phases.map((p) => [p.key, p.since, p.until])).toEqual([
      ['browser', ms(0), ms(0)],
      // Setting the viewport is part of getting ready, not a page a person sees.
      ['connecting', ms(1), ms(16)],
      ['first-page', ms(16), null],
    ]);
    expect(start.phases[2]!.doing).toBe('Opening https://shop.example/');
  });

  it('a queued run: queued, then its browser starting, each with its time; over once the first page is open', () => {
    const events = [
      at(0, { event: 'RunQueued', workflow_id: WORKFLOW, position: 2 }),
      at(30, { event: 'RunStarting', phase: 'browser' }),
      at(33, { event: 'SessionStarted', workflow_id: WORKFLOW }),
      at(34, { event: 'RunStarted', workflow_id: WORKFLOW, total_actions: 2 }),
      started(40, 1, 'navigate', { url: 'https://shop.example/' }),
    ];
    const before = runStart(events);
    expect(before.phases.map((p) => [p.key, p.since, p.until])).toEqual([
      ['queued', ms(0), ms(30)],
      ['browser', ms(30), ms(33)],
      ['connecting', ms(34), ms(40)],
      ['first-page', ms(40), null],
    ]);
    expect(before.phases[0]!.doing).toBe('Queued at position 2: waiting for a browser to free');
    const after = runStart([...events, completed(42, 1, 'navigate')]);
    expect(after.over).toBe(true);
    expect(after.phases.at(-1)).toMatchObject({ key: 'first-page', until: ms(42) });
  });

  it('is over at the first step that is not a first page, and at an end before any step', () => {
    const begun = [
      at(0, { event: 'SessionStarted', workflow_id: WORKFLOW }),
      at(1, { event: 'RunStarted', workflow_id: WORKFLOW, total_actions: 1 }),
    ];
    expect(runStart(begun).over).toBe(false);
    expect(runStart([...begun, started(2, 1, 'click')]).over).toBe(true);
    const failed = runStart([
      ...begun,
      at(3, { event: 'RunError', message: 'The run could not start', outputs: {}, content: '', error: '' }),
    ]);
    expect(failed.over).toBe(true);
    expect(failed.phases.at(-1)).toMatchObject({ key: 'connecting', until: ms(3) });
  });

  it('has no phases before any event', () => {
    expect(runStart([])).toEqual({ phases: [], over: false });
  });
});
