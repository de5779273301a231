// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSettings } from '../../api/settings.ts';
import { CredentialsSection } from './CredentialsSection.tsx';
import { renderWithQuery } from '../../lib/render-with-query.tsx';

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const row = (name: string) => ({ id: '6f1c2a8e-54a4-4a77-9d55-1f0a2b3c4d5e', name, created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z' });

function renderSection(connected = true) {
  renderWithQuery(<CredentialsSection connected={connected} />);
}

/** A fake server: list answers `names`, store adds, delete removes. */
function fakeServer(names: string[]) {
  const calls: { url: string; body?: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const body = init.body ? (JSON.parse(init.body as string) as { name: string; value?: string }) : undefined;
    calls.push({ url, body });
    if (url.endsWith('/list_credentials')) return answer(200, { succeeded: true, credentials: names.map(row) });
    if (url.endsWith('/store_credential')) {
      const replaced = names.includes(body!.name);
      if (!replaced) names.push(body!.name);
      return answer(200, { succeeded: true, name: body!.name, credential_id: row(body!.name).id, replaced });
    }
    if (url.endsWith('/delete_credential')) {
      names.splice(names.indexOf(body!.name), 1);
      return answer(200, { succeeded: true });
    }
    return answer(404, { error: 'not_found', message: 'nope' });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

beforeEach(() => {
  localStorage.clear();
  saveSettings({ baseUrl: 'http://localhost:8080/api', apiKey: 'k_0123456789abcdef' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CredentialsSection', () => {
  it('lists names and dates, and says values cannot be read back and how a workflow uses one', async () => {
    fakeServer(['site_password']);
    renderSection();
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('cell', { name: 'site_password' })).toBeTruthy();
    expect(screen.getByText(/never shows it again/)).toBeTruthy();
    expect(screen.getByText('{{credentials.site_password}}')).toBeTruthy();
  });

  it('checks the name and value before any store call', async () => {
    const calls = fakeServer([]);
    renderSection();
    await screen.findByText('No credentials yet.');
    await userEvent.type(screen.getByLabelText('Name'), 'my password');
    await userEvent.click(screen.getByRole('button', { name: 'Store credential' }));
    expect(await screen.findByText(/name must start with a letter or _/)).toBeTruthy();
    expect(await screen.findByText('value must not be empty')).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('/store_credential'))).toBe(false);
  });

  it('stores, clears the value from the page, and lists the new name', async () => {
    const calls = fakeServer([]);
    renderSection();
    await screen.findByText('No credentials yet.');
    const value = screen.getByLabelText('Value') as HTMLInputElement;
    expect(value.type).toBe('password');
    await userEvent.type(screen.getByLabelText('Name'), 'api_token');
    await userEvent.type(value, 's3cret value');
    await userEvent.click(screen.getByRole('button', { name: 'Store credential' }));
    expect((await screen.findByRole('status')).textContent).toContain('Stored api_token');
    expect(calls.find((c) => c.url.endsWith('/store_credential'))?.body).toEqual({ name: 'api_token', value: 's3cret value' });
    expect((screen.getByLabelText('Value') as HTMLInputElement).value).toBe('');
    expect(await within(await screen.findByRole('table')).findByRole('cell', { name: 'api_token' })).toBeTruthy();
  });

  it('says when a name exists that storing replaces its value', async () => {
    fakeServer(['site_password']);
    renderSection();
    await screen.findByRole('table');
    await userEvent.type(screen.getByLabelText('Name'), 'site_password');
    expect(screen.getByText(/exists: storing replaces its value/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Replace value' })).toBeTruthy();
  });

  it('deletes after the confirmation', async () => {
    const calls = fakeServer(['old_one']);
    renderSection();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: /^Delete\s*old_one$/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete credential', hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/delete_credential'))?.body).toEqual({ name: 'old_one' }));
    expect(await screen.findByText('No credentials yet.')).toBeTruthy();
  });

  it('asks for no list without an API key', () => {
    const calls = fakeServer([]);
    renderSection(false);
    expect(screen.getByText(/Save an API key above/)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
