// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunStatusResponse } from '../../../contract/runs.ts';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { RunSteps } from './RunSteps.tsx';

const SESSION = '11111111-2222-4333-8444-555555555555';
const WORKFLOW = '66666666-2222-4333-8444-555555555555';
const RAW = 'Timed out after waiting 1000ms';
const OURS = 'Step 2 (click #missing): no element matched within 1 s. Check the selector in the workflow editor.';

function run(over: Partial<RunStatusResponse>): RunStatusResponse {
  return {
    succeeded: false,
    completed: false,
    status: 'running',
    message: 'Running',
    results: [],
    total_actions: 2,
    session_id: SESSION,
    workflow_id: WORKFLOW,
    completed_at: null,
    outputs: {},
    screenshot: null,
    pause: null,
    queue_position: null,
    ...over,
  };
}
const result = (action: string, ok: boolean) => ({
  action,
  params: {},
  result: ok ? { ok } : { ok, error: RAW },
  timestamp: '2026-11-28T07:00:00.000Z',
  duration: 5,
});
const failed = run({
  completed: true,
  status: 'failed',
  message: OURS,
  results: [result('navigate', true), result('click', false)],
  completed_at: '2026-11-28T07:00:05.000Z',
  screenshot: 'data:image/jpeg;base64,AAAA',
});
const event = (s: number, e: Record<string, unknown>) =>
  ({
    index: s,
    session_id: SESSION,
    created_at: new Date(Date.now() - (10 - s) * 1000).toISOString(),
    ...e,
  }) as SessionEvent;

const show = (props: Parameters<typeof RunSteps>[0]) =>
  render(
    <MemoryRouter>
      <RunSteps {...props} />
    </MemoryRouter>,
  );

afterEach(cleanup);

describe('RunSteps', () => {
  it('shows the start phase by phase before step 1, instead of "0 of 2 steps done"', () => {
    show({
      run: run({}),
      events: [
        event(0, { event: 'SessionStarted', workflow_id: WORKFLOW }),
        event(1, { event: 'RunStarted', workflow_id: WORKFLOW, total_actions: 2 }),
      ],
    });
    const start = screen.getByTestId('run-start');
    expect(within(start).getByRole('status').textContent).toBe('Connecting the run to the browser…');
    const phases = within(start).getAllByRole('listitem');
    expect(phases.map((li) => [li.dataset.phase, li.dataset.state])).toEqual([
      ['browser', 'done'],
      ['connecting', 'doing'],
    ]);
    // Under way for 9 s by the events' stamps (more on a slow host), counted in whole seconds.
    const elapsed = /Connecting the run to the browser(\d+) s$/.exec(phases[1]!.textContent)?.[1];
    expect(Number(elapsed)).toBeGreaterThanOrEqual(9);
    expect(screen.queryByText(/steps done/)).toBeNull();
  });

  it('says "0 of 2 steps done" once the start is over, or without events', () => {
    show({ run: run({}) });
    expect(screen.getByRole('status').textContent).toBe('Running… 0 of 2 steps done.');
    expect(screen.queryByTestId('run-start')).toBeNull();
  });

  it('says why a failed step failed once, in words, with a link to the editor at that step and its screenshot', () => {
    show({ run: failed });
    expect(screen.getByTestId('outcome').textContent).toMatch(/^Failed at step 2 of 2\./);
    const failure = screen.getByTestId('step-failure');
    expect(failure.textContent).toContain(OURS);
    expect(screen.getAllByText(/no element matched/)).toHaveLength(1);
    expect(screen.queryByText(RAW)).toBeNull();
    const link = within(failure).getByRole('link', { name: 'the workflow editor' });
    expect(link.getAttribute('href')).toBe(`/workflows/${WORKFLOW}#step-2`);
    expect(within(failure).getByRole('img', { name: 'The page when step 2 failed' })).toBeTruthy();
  });

  it('leaves the screenshot out where the page shows it already, and names the step when the message has no editor', () => {
    show({
      run: { ...failed, message: 'Step 2 (click #missing): the session was closed while this step ran' },
      screenshotShown: true,
    });
    const failure = screen.getByTestId('step-failure');
    expect(within(failure).queryByRole('img')).toBeNull();
    const link = within(failure).getByRole('link', { name: 'Open step 2 in the workflow editor' });
    expect(link.getAttribute('href')).toBe(`/workflows/${WORKFLOW}#step-2`);
  });

  it('a run that failed before any step keeps its message in the outcome', () => {
    show({ run: run({ completed: true, status: 'failed', message: 'The run could not start: no browser' }) });
    expect(screen.getByTestId('outcome').textContent).toContain('Failed. The run could not start: no browser');
    expect(screen.queryByTestId('step-failure')).toBeNull();
  });
});
