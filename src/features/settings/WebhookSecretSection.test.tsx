// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookSecretSection } from './WebhookSecretSection.tsx';
import { renderWithQuery } from '../../lib/render-with-query.tsx';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake server with one secret; rotate replaces it. Returns the calls made. */
function fakeServer() {
  let secret = 'whsec_first0000000000000000000000000000000000=';
  const calls: { url: string; method: string }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, method: init.method ?? 'GET' });
      if (url.endsWith('/webhooks/secret')) return answer(200, { secret });
      if (url.endsWith('/webhooks/secret/rotate') && init.method === 'POST') {
        secret = 'whsec_second000000000000000000000000000000000=';
        return answer(200, { secret });
      }
      return answer(404, { error: 'not_found', message: 'nope' });
    }),
  );
  return calls;
}

function renderSection(connected = true) {
  renderWithQuery(<WebhookSecretSection connected={connected} />);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WebhookSecretSection', () => {
  it('keeps the secret hidden and unfetched until Reveal, and hides it again', async () => {
    const calls = fakeServer();
    renderSection();
    expect(screen.getByLabelText('Webhook signing secret (hidden)').textContent).not.toContain('first');
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Reveal secret' }));
    expect(await screen.findByText('whsec_first0000000000000000000000000000000000=')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide secret' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Hide secret' }));
    expect(screen.queryByText(/whsec_first/)).toBeNull();
  });

  it('copies the secret without showing it', async () => {
    fakeServer();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderSection();
    await userEvent.click(screen.getByRole('button', { name: 'Copy secret' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_first0000000000000000000000000000000000='));
    expect(screen.queryByText(/whsec_first/)).toBeNull();
  });

  it('rotates only after the confirmation, then shows the new secret', async () => {
    const calls = fakeServer();
    renderSection();
    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret…' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret', hidden: true }));
    expect(await screen.findByText('whsec_second000000000000000000000000000000000=')).toBeTruthy();
    expect(screen.getByText(/Rotated. Webhooks are now signed with the new secret/).getAttribute('role')).toBe(
      'status',
    );
    expect(calls.filter((c) => c.url.endsWith('/rotate') && c.method === 'POST')).toHaveLength(1);
  });

  it('asks for nothing without an API key', () => {
    const calls = fakeServer();
    renderSection(false);
    expect(screen.getByText(/Save an API key above/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reveal secret' })).toBeNull();
    expect(calls).toEqual([]);
  });
});
