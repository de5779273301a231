// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerInfo } from '../../../contract/meta.ts';
import { ServerFactsSection } from './ServerFactsSection.tsx';
import { renderWithQuery } from '../../lib/render-with-query.tsx';

function serve(info: ServerInfo) {
  const fetch = vi.fn(
    async () => new Response(JSON.stringify(info), { status: 200, headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const renderSection = (connected = true) => renderWithQuery(<ServerFactsSection connected={connected} />);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ServerFactsSection', () => {
  it('shows the version and what is configured, with what to set when not', async () => {
    serve({
      version: '1.2.3',
      writer_configured: false,
      proxy_configured: true,
      max_sessions: 7,
      api_key_file: 'DATA_DIR/api-key',
    });
    renderSection();
    expect(await screen.findByText('1.2.3')).toBeTruthy();
    expect(
      screen.getByText(/Not configured: the Writer and the agent answer 503 until MODEL_NAME and MODEL_BASE_URL/),
    ).toBeTruthy();
    expect(screen.getByText('Configured: sessions may use proxies.')).toBeTruthy();
    expect(screen.getByText('At most 7')).toBeTruthy();
  });

  it('asks nothing without an API key', () => {
    const fetch = serve({
      version: '1',
      writer_configured: true,
      proxy_configured: false,
      max_sessions: 1,
      api_key_file: '',
    });
    renderSection(false);
    expect(screen.getByText(/Save an API key above/)).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});
