// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyFlowText } from './workflow-form.ts';
import { RecordSteps } from './RecordSteps.tsx';

/** A server that refuses every request (503), keeping what was asked. */
function refusingServer() {
  const asked: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      asked.push({ url: String(url), body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
      return new Response(JSON.stringify({ error: 'unavailable', message: 'No browser is free.' }), {
        status: 503,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return asked;
}

const wrap = (ui: ReactNode) => (
  <StrictMode>
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      {ui}
    </QueryClientProvider>
  </StrictMode>
);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RecordSteps', () => {
  it('on a workflow not saved yet, Save and record hands the start page and place to the editor, and opens nothing', async () => {
    const asked = refusingServer();
    const onSaveFirst = vi.fn();
    render(
      wrap(
        <RecordSteps workflowName={undefined} flowText={emptyFlowText()} onSave={vi.fn()} onSaveFirst={onSaveFirst} />,
      ),
    );
    expect(screen.getByText(/not saved yet: Save and record saves it/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Start page (optional)'), ' https://shop.test/ ');
    await userEvent.click(screen.getByRole('button', { name: 'Save and record' }));
    expect(onSaveFirst).toHaveBeenCalledExactlyOnceWith({ startUrl: 'https://shop.test/', after: 'end' });
    expect(asked).toEqual([]);
  });

  it('saved just now with a plan, starts recording once on the start page planned, and says so when no browser opens', async () => {
    const asked = refusingServer();
    const onAutoStarted = vi.fn();
    render(
      wrap(
        <RecordSteps
          workflowName="Sign up"
          flowText={emptyFlowText()}
          onSave={vi.fn()}
          onSaveFirst={vi.fn()}
          autoStart={{ startUrl: 'https://shop.test/', after: 'end' }}
          onAutoStarted={onAutoStarted}
        />,
      ),
    );
    expect(await screen.findByText('Could not open a browser to record in.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Record' })).toHaveProperty('disabled', false));
    expect(onAutoStarted).toHaveBeenCalledOnce();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.url).toMatch(/\/api\/create_workflow_session$/);
    expect(asked[0]!.body).toEqual({ workflow_name: 'Sign up', start_url: 'https://shop.test/' });
    expect(screen.getByLabelText('Start page (optional)')).toHaveProperty('value', 'https://shop.test/');
  });
});
