import { describe, expect, it } from 'vitest';
import { agentWorkflowId, chatModel, hasAgentEvents, recordedSteps, stateRevision, toolTarget } from './chat-model.ts';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import type { AgentState } from '../../../contract/agent.ts';
import { eventLog, SESSION, WORKFLOW } from './agent-fixtures.ts';
import { agentActivity } from './AgentChat.tsx';

describe('chatModel', () => {
  it('joins the streamed pieces of one turn into one agent message, after the user message', () => {
    const l = eventLog();
    const model = chatModel([
      l.message('Find the price'),
      l.running(true),
      l.started(),
      l.text('The price '),
      l.text('is '),
      l.text('42.50 €.'),
    ]);
    expect(model.items.map((i) => i.kind)).toEqual(['user', 'agent']);
    expect(model.items[1]).toMatchObject({ kind: 'agent', text: 'The price is 42.50 €.', complete: false });
    expect(model.running).toBe(true);
  });

  it('folds a call and its result into one line, and splits the text around it', () => {
    const l = eventLog();
    const args = { element: 'More information…', ref: 'e12' };
    const model = chatModel([
      l.message('click the More information link'),
      l.text('Clicking it.'),
      l.call('call_1', 'browser_click', args),
      l.result('call_1', 'browser_click', args, 'Clicked'),
      l.text('Done: the page changed.'),
      l.running(false),
    ]);
    expect(model.items.map((i) => i.kind)).toEqual(['user', 'agent', 'tool', 'agent']);
    expect(model.items[1]).toMatchObject({ text: 'Clicking it.', complete: true });
    expect(model.items[2]).toEqual({
      kind: 'tool',
      key: expect.any(String) as string,
      name: 'browser_click',
      target: 'More information…',
      args,
      status: 'ok',
      result: 'Clicked',
    });
    expect(model.items[3]).toMatchObject({ text: 'Done: the page changed.', complete: true });
    expect(model.running).toBe(false);
  });

  it('marks a failed call with its error text', () => {
    const l = eventLog();
    const model = chatModel([
      l.call('c', 'browser_type', { ref: 'e99', text: 'hello' }),
      l.result('c', 'browser_type', { ref: 'e99', text: 'hello' }, 'No element e99 in the last snapshot', false),
    ]);
    expect(model.items).toHaveLength(1);
    expect(model.items[0]).toMatchObject({ status: 'error', result: 'No element e99 in the last snapshot' });
  });

  it('shows a call still running, and ends it with the turn', () => {
    const l = eventLog();
    const running = chatModel([l.call('c', 'browser_navigate', { url: 'https://example.com/' })]);
    expect(running.items[0]).toMatchObject({ status: 'running', target: 'https://example.com/', result: null });
    const stopped = chatModel([
      ...[l.call('c', 'browser_navigate', { url: 'https://example.com/' })],
      l.error('Interrupted'),
    ]);
    expect(stopped.items.map((i) => i.kind)).toEqual(['tool', 'error']);
    expect(stopped.items[0]).toMatchObject({ status: 'error' });
    expect(stopped.items[1]).toMatchObject({ message: 'Interrupted' });
  });

  it('keeps a question open until a message (the answer) comes after it', () => {
    const l = eventLog();
    const asked = [l.message('log in'), l.ask('tu_1', 'Which account?', ['Work', 'Personal'])];
    const open = chatModel(asked);
    expect(open.openQuestion).toMatchObject({
      toolUseId: 'tu_1',
      questions: [{ question: 'Which account?', options: ['Work', 'Personal'] }],
      answered: false,
    });
    const answered = chatModel([...asked, l.message('Work')]);
    expect(answered.openQuestion).toBeUndefined();
    expect(answered.items.find((i) => i.kind === 'question')).toMatchObject({ answered: true });
  });

  it('shows a model failure as an error line, and a summary the text did not already say as done', () => {
    const l = eventLog();
    const model = chatModel([
      l.message('one'),
      l.error('The model answered 500'),
      l.message('two'),
      l.text('Clicked the link.'),
      l.completed('Clicked the link.'),
      l.message('three'),
      l.completed('Opened the page'),
    ]);
    expect(model.items.map((i) => i.kind)).toEqual(['user', 'error', 'user', 'agent', 'user', 'done']);
    expect(model.items[5]).toMatchObject({ message: 'Opened the page' });
  });

  it('ignores a workflow run’s events (no agent mark) and notes the session’s end', () => {
    const l = eventLog();
    // A run's extract output: RunContent without the agent mark.
    const runText: SessionEvent = {
      index: 0,
      session_id: SESSION,
      created_at: '2026-11-25T12:00:00.000Z',
      event: 'RunContent',
      outputs: { price: '4' },
      content: 'price = 4',
      content_type: 'text',
    };
    const model = chatModel([runText, l.ended()]);
    expect(model.items).toEqual([]);
    expect(model.ended).toBe(true);
    expect(model.running).toBe(false);
  });

  it('counts the events the agent state depends on', () => {
    const l = eventLog();
    expect(stateRevision([l.text('a'), l.running(true), l.recorded(1, { type: 'click' }), l.completed('x')])).toBe(3);
  });
});

describe('from the log alone (an ended editor session)', () => {
  it('reads the recorded steps in step order, the workflow, and whether the log is an agent’s', () => {
    const l = eventLog();
    const log = [
      l.started(),
      l.recorded(2, { type: 'click', n: 1 }),
      l.recorded(1, { type: 'navigate' }),
      l.recorded(2, { type: 'click', n: 2 }),
    ];
    expect(recordedSteps(log)).toEqual([{ type: 'navigate' }, { type: 'click', n: 2 }]);
    expect(agentWorkflowId(log)).toBe(WORKFLOW);
    expect(hasAgentEvents(log)).toBe(true);
    expect(hasAgentEvents([l.ended()])).toBe(false);
  });
});

describe('toolTarget', () => {
  it('prefers the element’s words, then the address, then any text, clipped', () => {
    expect(toolTarget({ ref: 'e1', element: 'Submit button' })).toBe('Submit button');
    expect(toolTarget({ url: 'https://example.com' })).toBe('https://example.com');
    expect(toolTarget({ ref: 'e1' })).toBe('e1');
    expect(toolTarget({ n: 3 })).toBeUndefined();
    expect(toolTarget({ text: 'x'.repeat(100) })).toHaveLength(60);
  });
});

describe('agentActivity', () => {
  const state = (status: AgentState['status']): AgentState => ({
    session_id: SESSION,
    workflow_id: WORKFLOW,
    status,
    queued: [],
    question: null,
    steps: [],
    model: 'fake',
  });

  it('reads the events first, then the state, and says ended above all', () => {
    const l = eventLog();
    expect(agentActivity(chatModel([]), undefined, false)).toBe('connecting');
    expect(agentActivity(chatModel([]), state('working'), false)).toBe('working');
    expect(agentActivity(chatModel([l.running(false)]), state('working'), false)).toBe('idle');
    expect(agentActivity(chatModel([l.running(true)]), state('idle'), false)).toBe('working');
    expect(agentActivity(chatModel([l.running(true), l.ask('t', 'Which?', [])]), state('working'), false)).toBe(
      'waiting',
    );
    expect(agentActivity(chatModel([l.running(true)]), state('working'), true)).toBe('ended');
    expect(agentActivity(chatModel([]), state('ended'), false)).toBe('ended');
  });
});
