// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../../contract/sessionEvents.ts';
import { workflowKeys } from '../../api/workflows/keys.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { EventLog } from './EventLog.tsx';

const SESSION = '11111111-2222-4333-8444-555555555555';
const WF = '99999999-8888-4777-8666-555555555555';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const OLD = ['#submit-old', ['iframe.pay', 'button.go']];
const NEW = ['aria/Pay now', '#pay'];

const healed: SessionEvent = {
  index: 3,
  session_id: SESSION,
  created_at: '2026-11-25T10:00:00.000Z',
  event: 'StepHealed',
  step: 2,
  action: 'click',
  old_selectors: OLD,
  new_selectors: NEW,
  workflow_id: WF,
};

/** A stored workflow, its flow's keys in a non-schema order (the server keeps them as written). */
function stored(selectors: unknown[] = OLD, type = 'click') {
  return {
    id: WF,
    name: 'Pay',
    flow: {
      steps: [
        { url: 'https://shop.example/{{item}}', type: 'navigate' },
        { offsetY: 4, selectors, type, offsetX: 3, target: 'main' },
      ],
      title: 'Pay',
      extra: { kept: true },
    },
    variables: [{ name: 'item', type: 'string', required: false, default: 'a', defaultValue: 'a' }],
    metadata: 'm',
    structured_output: null,
    created_at: '2026-11-25T09:00:00.000Z',
    updated_at: '2026-11-25T09:00:00.000Z',
  };
}

function serve(get: () => Response) {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const u = new URL(url);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      calls.push({ method, path: u.pathname, body });
      if (u.pathname === `/api/workflows/${WF}` && method === 'GET') return get();
      if (u.pathname === `/api/workflows/${WF}` && method === 'PUT') {
        const b = body as { name: string; flow: unknown; variables: unknown };
        return json({ ...stored(), ...b, updated_at: '2026-11-25T11:00:00.000Z' });
      }
      return json({ error: 'not_found', message: 'no' }, 404);
    }),
  );
  return calls;
}

beforeEach(() => {
  localStorage.setItem('browserdesk.settings', JSON.stringify({ baseUrl: '/api', apiKey: 'k_test' }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('a StepHealed event in the log', () => {
  it('shows the first old and new selectors, with the full lists in a disclosure', () => {
    serve(() => json(stored()));
    const { container } = renderWithQuery(<EventLog events={[healed]} />);
    expect(container.querySelector('.healed > p')?.textContent).toBe('#submit-old → aria/Pay now');
    expect(screen.getByText('All selectors of step 2')).toBeTruthy();
    expect(screen.getByText('iframe.pay › button.go')).toBeTruthy();
    expect(screen.getByText('#pay')).toBeTruthy();
  });

  it('truncates a long selector on the line, keeping it whole in its title', () => {
    serve(() => json(stored()));
    const long = `#${'x'.repeat(200)}`;
    const { container } = renderWithQuery(<EventLog events={[{ ...healed, new_selectors: [long] }]} />);
    const shown = container.querySelectorAll('.healed > p code')[1]!;
    expect(shown.textContent).toHaveLength(80);
    expect(shown.textContent?.endsWith('…')).toBe(true);
    expect(shown.getAttribute('title')).toBe(long);
  });

  it('applies the new selectors when the step is unchanged, keeping the rest of the workflow as it is', async () => {
    const calls = serve(() => json(stored()));
    renderWithQuery(<EventLog events={[healed]} />);
    const button = screen.getByRole('button', { name: /apply to workflow/i });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('Applied: step 2 now uses the healed selectors.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Applied');
    expect(screen.getByRole('button', { name: /applied to workflow/i })).toHaveProperty('disabled', true);

    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/api/workflows/${WF}`);
    const original = stored();
    const flow = structuredClone(original.flow);
    flow.steps[1]!.selectors = NEW;
    // Byte-identical but for the selectors: the same keys in the same order.
    expect(JSON.stringify(put?.body)).toBe(
      JSON.stringify({
        name: 'Pay',
        flow,
        variables: [{ name: 'item', type: 'string', required: false, default: 'a' }],
      }),
    );
  });

  it("invalidates the workflow's cached queries once applied", async () => {
    serve(() => json(stored()));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(workflowKeys.one(WF), stored());
    client.setQueryData(workflowKeys.list(100), { items: [] });
    render(
      <QueryClientProvider client={client}>
        <EventLog events={[healed]} />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: /apply to workflow/i }));
    await screen.findByText('Applied: step 2 now uses the healed selectors.');
    expect(client.getQueryState(workflowKeys.one(WF))?.isInvalidated).toBe(true);
    expect(client.getQueryState(workflowKeys.list(100))?.isInvalidated).toBe(true);
  });

  it('refuses, writing nothing, when the step has changed since the run', async () => {
    const calls = serve(() => json(stored(['#someone-else-edited'])));
    renderWithQuery(<EventLog events={[healed]} />);
    await userEvent.click(screen.getByRole('button', { name: /apply to workflow/i }));
    expect(await screen.findByText(/step 2 has changed since this run/)).toBeTruthy();
    const link = screen.getByRole('link', { name: 'open the workflow to edit it' });
    expect(link.getAttribute('href')).toBe(`/workflows/${WF}`);
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('refuses when the step is now of another type', async () => {
    const calls = serve(() => json(stored(OLD, 'hover')));
    renderWithQuery(<EventLog events={[healed]} />);
    await userEvent.click(screen.getByRole('button', { name: /apply to workflow/i }));
    expect(await screen.findByText(/step 2 has changed since this run/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('says so when the workflow was deleted', async () => {
    const calls = serve(() => json({ error: 'not_found', message: 'No such workflow' }, 404));
    renderWithQuery(<EventLog events={[healed]} />);
    await userEvent.click(screen.getByRole('button', { name: /apply to workflow/i }));
    expect(await screen.findByText(/The workflow was deleted/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('shows a failed save in words and lets the person try again', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) =>
        (init?.method ?? 'GET') === 'GET'
          ? json(stored())
          : json({ error: 'internal', message: 'The database is busy.' }, 500),
      ),
    );
    renderWithQuery(<EventLog events={[healed]} />);
    await userEvent.click(screen.getByRole('button', { name: /apply to workflow/i }));
    expect((await screen.findByRole('alert')).textContent).toContain('The database is busy.');
    expect(screen.getByRole('button', { name: /apply to workflow/i })).toHaveProperty('disabled', false);
  });
});
