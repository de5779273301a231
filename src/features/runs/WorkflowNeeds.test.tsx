// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Flow } from '../../../contract/steps.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { WorkflowNeeds } from './WorkflowNeeds.tsx';

const flow = {
  title: 't',
  steps: [
    { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#f']], file: 'report.pdf' } },
    { type: 'customStep', name: 'uploadFile', parameters: { selectors: [['#g']], file: 'b.csv' } },
    { type: 'change', value: '{{credentials.site_password}}', selectors: [['#pw']] },
    { type: 'change', value: '{{credentials.api_token}}', selectors: [['#t']] },
  ],
} as Flow;

function serve(credentials: string[] | 'fail') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      credentials === 'fail'
        ? new Response(JSON.stringify({ succeeded: false, message: 'no' }), {
            status: 500,
            headers: { 'content-type': 'application/json' },
          })
        : new Response(
            JSON.stringify({
              succeeded: true,
              credentials: credentials.map((name, i) => ({
                id: `0000000${i}-0000-4000-8000-000000000000`,
                name,
                allowed_origins: [],
                created_at: '2026-11-25T10:00:00.000Z',
                updated_at: '2026-11-25T10:00:00.000Z',
              })),
            }),
            {
              status: 200,
              headers: { 'content-type': 'application/json' },
            },
          ),
    ),
  );
}

function renderNeeds(f: Flow, files: File[]) {
  const router = createMemoryRouter([{ path: '/run', element: <WorkflowNeeds flow={f} files={files} /> }], {
    initialEntries: ['/run'],
  });
  renderWithQuery(<RouterProvider router={router} />);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WorkflowNeeds', () => {
  it('names the files and credentials, which are there and which are missing, with a link to add a credential', async () => {
    serve(['site_password']);
    renderNeeds(flow, [new File(['x'], 'b.csv')]);
    expect(screen.getByRole('heading', { name: 'What this workflow needs' })).toBeTruthy();
    const files = screen.getByRole('list', { name: '2 files, chosen under Files below' });
    expect(files.textContent).toBe('report.pdf not chosen yetb.csv ✓ chosen');
    const link = await screen.findByRole('link', { name: 'add api_token in Settings' });
    expect(link.getAttribute('href')).toBe('/settings#credentials-title');
    const creds = screen.getByRole('list', { name: '2 stored credentials' });
    expect(creds.textContent).toContain('site_password ✓ stored');
    expect(screen.getByText('The server refuses to start the run until each one is stored.')).toBeTruthy();
  });

  it('says when it could not check the credentials', async () => {
    serve('fail');
    renderNeeds(flow, []);
    expect(await screen.findAllByText('(could not check whether it is stored)')).toHaveLength(2);
  });

  it('shows nothing for a workflow that needs neither', () => {
    serve([]);
    renderNeeds({ title: 't', steps: [{ type: 'navigate', url: 'https://example.com/' }] } as Flow, []);
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
