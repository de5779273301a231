// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WriterPage } from './WriterPage.tsx';
import { renderWithQuery } from '../../lib/render-with-query.tsx';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const sse = (events: unknown[]) =>
  new Response(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''), {
    status: 200,
    headers: { 'content-type': 'text/event-stream' },
  });

function mockServer(onWrite: () => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      String(url).includes('/writes')
        ? json(200, { items: [], next_cursor: null })
        : // A server that does not say whether a model is configured: Write stays on.
          String(url).includes('/server_info')
          ? json(404, { error: 'not_found', message: 'Not found' })
          : onWrite(),
    ),
  );
}

async function write() {
  renderWithQuery(<WriterPage />);
  await userEvent.type(screen.getByLabelText('Prompt'), 'A poem');
  await userEvent.click(screen.getByRole('button', { name: 'Write' }));
}

beforeEach(() =>
  localStorage.setItem(
    'browserdesk.settings',
    JSON.stringify({ baseUrl: 'http://api.test/api', apiKey: 'k_0123456789abcdef' }),
  ),
);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('WriterPage', () => {
  it('shows the streamed text, the figures and the cut-off note', async () => {
    mockServer(() =>
      sse([
        { type: 'delta', text: 'Once upon ' },
        { type: 'delta', text: 'a time' },
        {
          type: 'done',
          response: {
            succeeded: true,
            text: 'Once upon a time',
            word_count: 4,
            error: 'generation limit reached',
            usage: { input_tokens: 5, output_tokens: 6 },
          },
        },
      ]),
    );
    await write();
    expect(await screen.findByTestId('word-count')).toHaveProperty('textContent', '4');
    expect(screen.getByTestId('prose').textContent).toBe('Once upon a time');
    expect(screen.getByText(/The text was cut off:/)).toBeTruthy();
  });

  it('offers a retry after a 502 from the stream', async () => {
    let calls = 0;
    mockServer(() => {
      calls++;
      return calls === 1
        ? sse([{ type: 'error', status: 502, error: 'model_failed', message: 'The model failed.' }])
        : sse([
            {
              type: 'done',
              response: {
                succeeded: true,
                text: 'Second try',
                word_count: 2,
                error: null,
                usage: { input_tokens: 1, output_tokens: 2 },
              },
            },
          ]);
    });
    await write();
    expect(await screen.findByText('The model failed.', { selector: 'strong' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Second try')).toBeTruthy();
    expect(calls).toBe(2);
  });

  it('says how to configure a model on a 503', async () => {
    mockServer(() =>
      json(503, {
        error: 'not_configured',
        message: 'No model is configured: set MODEL_BASE_URL and MODEL_NAME.',
      }),
    );
    await write();
    expect(await screen.findByText('No model is configured.', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByText(/set MODEL_BASE_URL and MODEL_NAME/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});

describe('WriterPage without a model', () => {
  it('says once that no model is configured and turns Write off', async () => {
    const info = {
      version: '1',
      writer_configured: false,
      proxy_configured: false,
      max_sessions: 4,
      api_key_file: '/data/keys',
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (String(url).includes('/writes')) return json(200, { items: [], next_cursor: null });
        if (String(url).includes('/server_info')) return json(200, info);
        throw new Error(`unexpected ${url}`);
      }),
    );
    renderWithQuery(<WriterPage />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'A poem');
    expect(await screen.findByText('No model is configured, so Write is off.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Write' })).toHaveProperty('disabled', true);
    expect(screen.getAllByText(/MODEL_PROVIDER/)).toHaveLength(1);
  });
});
