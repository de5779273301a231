// @vitest-environment jsdom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentState } from '../../../contract/agent.ts';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import type { Session } from '../../../contract/sessions.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { sessionFixture } from '../../lib/session-fixture.ts';
import { eventLog, SESSION, WORKFLOW } from './agent-fixtures.ts';
import { AgentSessionPage } from './AgentSessionPage.tsx';

// The live view itself (noVNC, the livestream) is the session page's, tested there.
vi.mock('../../components/LiveViewPanel.tsx', () => ({
  LiveViewPanel: ({ vncUrl }: { vncUrl?: string }) => <p>live view {vncUrl}</p>,
}));

const session: Session = sessionFixture({
  id: SESSION,
  workflow_id: WORKFLOW,
  workflow_name: 'More information',
  created_at: '2026-11-25T12:00:00.000Z',
  expires_at: '2026-11-25T12:20:00.000Z',
  clients: { viewers: 1, cdp: 0 },
});

const baseState: AgentState = {
  session_id: SESSION,
  workflow_id: WORKFLOW,
  status: 'idle',
  queued: [],
  question: null,
  steps: [],
  model: 'openai-compatible:fake',
};

interface Posted {
  path: string;
  body: unknown;
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The server as the contract says: the session, its agent state, its event stream (history first,
 * then whatever the test pushes), and the message, interrupt and views calls, which it records.
 */
function fakeServer(history: SessionEvent[], state: Partial<AgentState> | 'none' = {}) {
  const posted: Posted[] = [];
  const stateReads = { count: 0 };
  let push: (e: SessionEvent) => void = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = new URL(url).pathname.replace(/^\/api/, '');
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      if (init?.method === 'POST') posted.push({ path, body });
      if (path === `/sessions/${SESSION}`) return json(session);
      if (path === `/sessions/${SESSION}/views`)
        return json({ vnc_url: 'vnc://view', livestream_url: 'ws://live', connect_url: 'ws://cdp' });
      if (path === `/session/${SESSION}/agent`) {
        stateReads.count++;
        if (state === 'none') return json({ error: 'not_found', message: 'This session has no agent' }, 404);
        return json({ ...baseState, ...state });
      }
      if (path === `/session/${SESSION}/message`) return json({ status: 'received' });
      if (path === '/interrupt') return json({ succeeded: true, message: 'Interrupted', session_id: SESSION });
      if (path === `/session/${SESSION}/stream`) {
        const encoder = new TextEncoder();
        const stream = new ReadableStream<Uint8Array>({
          start(c) {
            const send = (e: SessionEvent) => c.enqueue(encoder.encode(`data: ${JSON.stringify(e)}\n\n`));
            history.forEach(send);
            push = send;
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
      }
      return json({ error: 'not_found', message: `No route for ${path}` }, 404);
    }),
  );
  return { posted, stateReads, push: (e: SessionEvent) => push(e) };
}

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/agent/:sessionId', Component: AgentSessionPage },
      { path: '*', Component: () => <p>elsewhere</p> },
    ],
    { initialEntries: [`/agent/${SESSION}`] },
  );
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const args = { element: 'More information…', ref: 'e12' };

describe('AgentSessionPage', () => {
  it('shows the conversation from the events: messages, joined text, a folded tool call; Stop interrupts', async () => {
    const l = eventLog();
    const server = fakeServer([
      l.message('click the More information link'),
      l.running(true),
      l.started(),
      l.text('I will click '),
      l.text('the link.'),
      l.call('call_1', 'browser_click', args),
      l.result('call_1', 'browser_click', args, 'Clicked “More information…”'),
    ]);
    renderPage();
    const log = await screen.findByRole('list', { name: 'Conversation' });
    await within(log).findByText('I will click the link.');
    expect(within(log).getByText('click the More information link')).toBeTruthy();
    expect(screen.getByText('The agent is working…')).toBeTruthy();
    expect(screen.getByText('live view vnc://view')).toBeTruthy();

    // One line per call (a native <details>, so keyboard-usable); opened, it shows the arguments and the result.
    const summary = within(log).getByText('browser_click').closest('summary')!;
    expect(summary.textContent).toContain('‘More information…’');
    expect(summary.textContent).toContain('succeeded');
    await userEvent.click(summary);
    await waitFor(() => expect(summary.closest('details')!.open).toBe(true));
    expect(within(summary.closest('details')!).getByText(/"ref": "e12"/)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(server.posted).toContainEqual({ path: '/interrupt', body: { session_id: SESSION } }));
  });

  it('sends a message on Enter, keeps focus in the composer, and adds a new line on Shift+Enter', async () => {
    const l = eventLog();
    const server = fakeServer([l.running(false)]);
    renderPage();
    await screen.findByText('Idle: the agent waits for your next message.');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    const box = screen.getByLabelText('Message to the agent');
    await userEvent.type(box, 'Fill the form{Shift>}{Enter}{/Shift}with my name');
    expect((box as HTMLTextAreaElement).value).toBe('Fill the form\nwith my name');
    expect(server.posted.filter((p) => p.path.endsWith('/message'))).toEqual([]);
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(server.posted).toContainEqual({
        path: `/session/${SESSION}/message`,
        body: { message: 'Fill the form\nwith my name' },
      }),
    );
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));
    expect(document.activeElement).toBe(box);
  });

  it('lists queued messages and takes one back with SIMPLEX_CANCEL', async () => {
    const l = eventLog();
    const server = fakeServer([l.running(true)], { status: 'working', queued: ['then search for shoes'] });
    renderPage();
    const takeBack = await screen.findByRole('button', { name: 'Take back: then search for shoes' });
    await userEvent.click(takeBack);
    await waitFor(() =>
      expect(server.posted).toContainEqual({
        path: `/session/${SESSION}/message`,
        body: { message: 'SIMPLEX_CANCEL then search for shoes' },
      }),
    );
  });

  it('answers a question with an option, or in words', async () => {
    const l = eventLog();
    const server = fakeServer(
      [l.message('log in'), l.running(true), l.ask('tu_1', 'Which account?', ['Work', 'Personal'])],
      {
        status: 'waiting_for_answer',
      },
    );
    renderPage();
    await screen.findByText('Waiting for you: the agent asked a question.');
    await userEvent.type(await screen.findByLabelText('Or answer in your words'), 'The admin one');
    await userEvent.click(screen.getByRole('button', { name: 'Send answer' }));
    await waitFor(() =>
      expect(server.posted).toContainEqual({
        path: `/session/${SESSION}/message`,
        body: { type: 'ask_user_answer', tool_use_id: 'tu_1', answers: { '0': 'The admin one' } },
      }),
    );
    // Sent: the question closes (its options can no longer be chosen).
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Work' }) as HTMLButtonElement).disabled).toBe(true),
    );
  });

  it('answers a question by its option button', async () => {
    const l = eventLog();
    const server = fakeServer([l.ask('tu_2', 'Which account?', ['Work', 'Personal'])]);
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Personal' }));
    await waitFor(() =>
      expect(server.posted).toContainEqual({
        path: `/session/${SESSION}/message`,
        body: { type: 'ask_user_answer', tool_use_id: 'tu_2', answers: { '0': 'Personal' } },
      }),
    );
  });

  it('shows errors as error lines, and the recorded steps with their workflow links, refreshed on StepRecorded', async () => {
    const l = eventLog();
    const step = {
      type: 'click' as const,
      selectors: [['aria/More information…'], ['a']],
      offsetX: 1,
      offsetY: 1,
    };
    const server = fakeServer([l.message('go'), l.error('The model answered 500'), l.running(false)], {
      steps: [{ type: 'navigate', url: 'https://example.com/' }, step],
    });
    renderPage();
    expect(await screen.findByText('The model answered 500')).toBeTruthy();
    const steps = await screen.findByRole('region', { name: 'Recorded steps' });
    await within(steps).findByText('Go to https://example.com/');
    expect(within(steps).getByText('aria/More information…')).toBeTruthy();
    expect(within(steps).getByRole('link', { name: 'Open workflow' }).getAttribute('href')).toBe(
      `/workflows/${WORKFLOW}`,
    );
    expect(within(steps).getByRole('link', { name: 'Run it' }).getAttribute('href')).toBe(`/run?workflow=${WORKFLOW}`);
    await waitFor(() => expect(server.stateReads.count).toBeGreaterThan(0));
    const before = server.stateReads.count;
    act(() => server.push(l.recorded(3, { type: 'click' })));
    await waitFor(() => expect(server.stateReads.count).toBeGreaterThan(before));
  });

  it('says when the session has no agent, with a link to its own page', async () => {
    const l = eventLog();
    fakeServer([l.ended()], 'none');
    renderPage();
    expect(await screen.findByText('No agent in this session.')).toBeTruthy();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'the session’s own page' }).getAttribute('href')).toBe(
        `/sessions/${SESSION}`,
      ),
    );
  });

  it('an ended editor session (its agent state gone) still shows the conversation and the steps from its events', async () => {
    const l = eventLog();
    fakeServer(
      [
        l.message('open the page'),
        l.started(),
        l.text('Opened.'),
        l.recorded(1, { type: 'navigate', url: 'https://example.com/' }),
        l.completed('Opened the page'),
        l.ended(),
      ],
      'none',
    );
    renderPage();
    await screen.findByText('Opened.');
    const steps = screen.getByRole('region', { name: 'Recorded steps' });
    expect(within(steps).getByText('Go to https://example.com/')).toBeTruthy();
    expect(within(steps).getByRole('link', { name: 'Open workflow' }).getAttribute('href')).toBe(
      `/workflows/${WORKFLOW}`,
    );
    expect(screen.queryByText('No agent in this session.')).toBeNull();
    expect(screen.queryByText("Could not read the agent's state.")).toBeNull();
    expect((screen.getByLabelText('Message to the agent') as HTMLTextAreaElement).disabled).toBe(true);
  });

  it('once the session has ended, says so and takes no more messages', async () => {
    const l = eventLog();
    fakeServer([l.message('hello'), l.text('Hi.'), l.running(false), l.ended()], { status: 'ended' });
    renderPage();
    await screen.findByText('The session has ended; the agent takes no more messages.');
    expect((screen.getByLabelText('Message to the agent') as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.getByText(/its browser is gone/)).toBeTruthy();
  });
});
