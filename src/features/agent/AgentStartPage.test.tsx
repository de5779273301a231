// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { recallSession } from '../../lib/session-memory.ts';
import { SESSION, WORKFLOW } from './agent-fixtures.ts';
import { AgentStartPage } from './AgentStartPage.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const started = {
  succeeded: true,
  workflow_id: WORKFLOW,
  session_id: SESSION,
  vnc_url: 'http://127.0.0.1/vnc?token=a',
  livestream_url: 'http://127.0.0.1/live?token=b',
  connect_url: 'ws://127.0.0.1/cdp?token=c',
  logs_url: 'http://127.0.0.1/api/session/x/stream?token=d',
  message_url: 'http://127.0.0.1/api/session/x/message?token=e',
  filesystem_url: null,
};

/** POST /start_editor_session answers `answer`; returns the bodies sent. */
function serve(answer: () => Response, writerConfigured = true) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (new URL(url).pathname === '/api/start_editor_session') {
        bodies.push(JSON.parse(String(init?.body)));
        return answer();
      }
      if (new URL(url).pathname === '/api/server_info')
        return json({
          version: '1.0.0',
          writer_configured: writerConfigured,
          proxy_configured: false,
          max_sessions: 4,
          api_key_file: 'DATA_DIR/api-key',
        });
      return json({ error: 'not_found', message: 'No route' }, 404);
    }),
  );
  return bodies;
}

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/agent', Component: AgentStartPage },
      { path: '/agent/:sessionId', Component: () => <p>agent session</p> },
    ],
    { initialEntries: ['/agent'] },
  );
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

async function fill(name: string, url: string) {
  await userEvent.type(screen.getByLabelText('Workflow name'), name);
  await userEvent.type(screen.getByLabelText('Start URL'), url);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('AgentStartPage', () => {
  it('starts an editor session with the test data rows, remembers its views and opens its page', async () => {
    const bodies = serve(() => json(started));
    const router = renderPage();
    await fill('More information', 'https://example.com/');
    await userEvent.click(screen.getByRole('button', { name: 'Add a variable' }));
    await userEvent.type(screen.getByLabelText('Variable 1 name'), 'email');
    await userEvent.type(screen.getByLabelText('Variable 1 value'), 'a@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Add a variable' }));
    await userEvent.click(screen.getByRole('button', { name: 'Start the agent' }));
    await screen.findByText('agent session');
    expect(bodies).toEqual([
      { name: 'More information', url: 'https://example.com/', test_data: { email: 'a@example.com' } },
    ]);
    expect(router.state.location.pathname).toBe(`/agent/${SESSION}`);
    expect(recallSession(SESSION)).toMatchObject({ vnc_url: started.vnc_url, workflow_name: 'More information' });
  });

  it('refuses a bad variable name before sending', async () => {
    const bodies = serve(() => json(started));
    renderPage();
    await fill('x', 'https://example.com/');
    await userEvent.click(screen.getByRole('button', { name: 'Add a variable' }));
    await userEvent.type(screen.getByLabelText('Variable 1 name'), 'my email');
    await userEvent.click(screen.getByRole('button', { name: 'Start the agent' }));
    expect(await screen.findByText(/“my email” is not a variable name/)).toBeTruthy();
    expect(bodies).toEqual([]);
  });

  it('says which settings a server without a model needs', async () => {
    serve(() =>
      json(
        { error: 'model_not_configured', message: 'No model is configured: set MODEL_PROVIDER and MODEL_NAME.' },
        503,
      ),
    );
    renderPage();
    await fill('x', 'https://example.com/');
    await userEvent.click(screen.getByRole('button', { name: 'Start the agent' }));
    const alert = await screen.findByText('No model is configured for the agent.');
    const notice = alert.closest('[role="alert"]')!;
    expect(notice.textContent).toContain('No model is configured: set MODEL_PROVIDER and MODEL_NAME.');
    expect(notice.textContent).toContain('README');
  });

  it('says before the form is filled when the server has no model', async () => {
    serve(() => json(started), false);
    renderPage();
    const notice = await screen.findByText('No model is configured on this server, so the agent cannot start.');
    expect(notice.closest('.notice')!.textContent).toContain('MODEL_NAME');
  });

  it('puts a 422 on the field it names', async () => {
    serve(() =>
      json(
        {
          error: 'invalid_request',
          message: 'Invalid request',
          issues: [{ path: 'url', message: 'url must be a public http(s) address' }],
        },
        422,
      ),
    );
    renderPage();
    await fill('x', 'https://example.com/');
    await userEvent.click(screen.getByRole('button', { name: 'Start the agent' }));
    const field = screen.getByLabelText('Start URL');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
  });
});
