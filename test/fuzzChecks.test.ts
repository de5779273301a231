import { afterAll, describe, expect, it } from 'vitest';
import type { RunStatusResponse } from '../contract/runs.ts';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { behaviourOf, checkAgentAnswer, DONE_MOVE } from './fuzz/agent.ts';
import { checkRunOutcome, endAllSessions, FuzzFailure, healthy, noProcessesLeft, Service } from './fuzz/harness.ts';
import type { FakeRequest } from './helpers/fakeModel.ts';

/**
 * The fuzzer's checks (test/fuzz/harness.ts) fail when they should: a fuzzer whose checks cannot
 * fail would pass whatever the service did.
 */

const status = (over: Partial<RunStatusResponse>): RunStatusResponse => ({
  succeeded: false,
  completed: true,
  status: 'failed',
  message: '',
  results: [],
  total_actions: 2,
  session_id: '00000000-0000-4000-8000-000000000000',
  workflow_id: '00000000-0000-4000-8000-000000000001',
  completed_at: new Date().toISOString(),
  outputs: {},
  screenshot: null,
  pause: null,
  queue_position: null,
  ...over,
});
const result = (ok: boolean) => ({
  action: 'click',
  params: {},
  result: { ok },
  timestamp: new Date().toISOString(),
  duration: 1,
});

describe('checkRunOutcome', () => {
  it('passes what issue 23 asks for', () => {
    checkRunOutcome(
      status({
        succeeded: true,
        status: 'succeeded',
        message: 'All 2 steps succeeded',
        results: [result(true), result(true)],
      }),
      2,
    );
    checkRunOutcome(
      status({ message: 'Step 2 (click #go): no element matched within 1 s.', results: [result(true), result(false)] }),
      2,
    );
    checkRunOutcome(status({ message: 'The run could not start: Chromium did not start: timed out' }), 2);
    checkRunOutcome(
      status({
        message: 'Interrupted through the API after 1 of 2 steps; the session stays live',
        results: [result(true)],
      }),
      2,
      { interrupted: true },
    );
    checkRunOutcome(
      status({
        message: 'The run was stopped while paused, before step 2 (click #go): the session was closed',
        results: [result(true)],
      }),
      2,
      { stopped: true },
    );
  });

  it.each([
    ['a run still going', status({ completed: false, status: 'running', message: 'Running' })],
    ['a failure naming no step', status({ message: 'TypeError: x is undefined', results: [result(false)] })],
    [
      'a failure naming another step',
      status({ message: 'Step 1 (click #go): x', results: [result(true), result(false)] }),
    ],
    ['a failure at a step that succeeded', status({ message: 'Step 1 (click #go): x', results: [result(true)] })],
    ['no step run and no word of not starting', status({ message: 'Before its first step: the engine stopped' })],
    [
      'an interruption nobody asked for',
      status({
        message: 'Interrupted through the API after 1 of 2 steps; the session stays live',
        results: [result(true)],
      }),
    ],
    [
      'a stop nobody asked for',
      status({ message: 'The run was stopped before step 2 (click #go): closed', results: [result(true)] }),
    ],
    [
      'a success with a failed step',
      status({
        succeeded: true,
        status: 'succeeded',
        message: 'All 2 steps succeeded',
        results: [result(true), result(false)],
      }),
    ],
    [
      "a count that is not the flow's",
      status({
        succeeded: true,
        status: 'succeeded',
        message: 'All 3 steps succeeded',
        total_actions: 3,
        results: [result(true), result(true), result(true)],
      }),
    ],
  ])('fails %s', (_, s) => {
    expect(() => checkRunOutcome(s, 2)).toThrow(FuzzFailure);
  });
});

describe('the agent property (test/fuzz/agent.ts)', () => {
  it('fails a 5xx, the 503 of an unconfigured model included, and passes a 4xx', () => {
    expect(() => checkAgentAnswer(500, 'boom', 'message 1')).toThrow(FuzzFailure);
    expect(() => checkAgentAnswer(503, '{"error":"no model is configured"}', 'start')).toThrow(/answered 503/);
    checkAgentAnswer(200, '{"status":"received"}', 'message 1');
    checkAgentAnswer(409, 'no question', 'message 2');
    checkAgentAnswer(422, 'bad', 'message 3');
  });

  it("hands the model a ref of the latest snapshot it was sent, and the site's address", () => {
    const req = {
      protocol: 'openai',
      body: { messages: [{ role: 'tool', content: '- button "go" [ref=k3f9ab-e5]\n- link "next" [ref=k3f9ab-e7]' }] },
    } as unknown as FakeRequest;
    const b = behaviourOf(
      {
        k: 'tools',
        calls: [
          { name: 'browser_click', args: { element: 'go', ref: '$REF' }, raw: false },
          { name: 'browser_navigate', args: '{"url":"$SITE/alert"', raw: true },
        ],
      },
      req,
      'http://127.0.0.1:9',
      1,
    );
    expect(b).toEqual({
      kind: 'tools',
      calls: [
        { name: 'browser_click', args: { element: 'go', ref: 'k3f9ab-e7' } },
        { name: 'browser_navigate', args: '{"url":"http://127.0.0.1:9/alert"' },
      ],
    });
    expect(DONE_MOVE).toMatchObject({ kind: 'tools', calls: [{ name: 'done' }] });
  });
});

describe('the server checks', () => {
  const svc = new Service('checks');
  afterAll(() => svc.down());

  it('see a session left running, and a server that died (started again, with the crash kept)', async () => {
    await svc.up();
    await healthy(svc);
    const res = await svc.postJson('/api/create_workflow_session', { workflow_name: 'left running' });
    CreateWorkflowSessionResponse.parse(await res.json());
    await expect(noProcessesLeft(svc, 500)).rejects.toThrow(/processes are left/);
    await endAllSessions(svc);
    await noProcessesLeft(svc);

    svc.child!.process.kill('SIGKILL');
    await new Promise((r) => svc.child!.process.once('exit', r));
    await expect(healthy(svc)).rejects.toThrow(/server process ended \(exit code -, signal SIGKILL\)/);
    await svc.up();
    expect(svc.crashes).toHaveLength(1);
    await healthy(svc);
  });
});
