// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSettings } from '../../api/settings.ts';
import { CredentialsSection } from './CredentialsSection.tsx';
import { renderWithQuery } from '../../lib/render-with-query.tsx';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ids = new Map<string, string>();
const idOf = (name: string) => ids.get(name) ?? ids.set(name, crypto.randomUUID()).get(name)!;
const row = (name: string, allowed_origins: string[] = []) => ({
  id: idOf(name),
  name,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  allowed_origins,
});

function renderSection(connected = true) {
  renderWithQuery(<CredentialsSection connected={connected} />);
}

/** A fake server: list answers `names` (with `origins` by name), store adds, delete removes; `storeAnswer` stands in for store's answer. */
function fakeServer(names: string[], origins: Record<string, string[]> = {}, storeAnswer?: Response) {
  const calls: { url: string; body?: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const body = init.body
      ? (JSON.parse(init.body as string) as { name: string; value?: string; allowed_origins?: string[] })
      : undefined;
    calls.push({ url, body });
    if (url.endsWith('/list_credentials'))
      return answer(200, { succeeded: true, credentials: names.map((n) => row(n, origins[n])) });
    if (url.endsWith('/store_credential')) {
      if (storeAnswer) return storeAnswer;
      const replaced = names.includes(body!.name);
      if (!replaced) names.push(body!.name);
      origins[body!.name] = body!.allowed_origins ?? origins[body!.name] ?? [];
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
    expect(await screen.findByText(/^Name must start with a letter or _/)).toBeTruthy();
    expect(await screen.findByText('Enter a value.')).toBeTruthy();
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
    expect(calls.find((c) => c.url.endsWith('/store_credential'))?.body).toEqual({
      name: 'api_token',
      value: 's3cret value',
      allowed_origins: [],
    });
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
    await waitFor(() =>
      expect(calls.find((c) => c.url.endsWith('/delete_credential'))?.body).toEqual({ name: 'old_one' }),
    );
    expect(await screen.findByText('No credentials yet.')).toBeTruthy();
  });

  it("lists each credential's allowed origins, or that it may be typed into any page", async () => {
    fakeServer(['bank_pw', 'anywhere_pw'], { bank_pw: ['https://bank.example', 'https://login.bank.example'] });
    renderSection();
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Allowed origins' })).toBeTruthy();
    const bank = within(table).getByRole('row', { name: /bank_pw/ });
    expect(
      within(bank)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['https://bank.example', 'https://login.bank.example']);
    expect(within(within(table).getByRole('row', { name: /anywhere_pw/ })).getByText('Any page')).toBeTruthy();
  });

  it('stores the allowed origins typed one a line (or with commas), by keyboard alone', async () => {
    const calls = fakeServer([]);
    renderSection();
    await screen.findByText('No credentials yet.');
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Name'));
    await user.keyboard('bank_pw');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Value'));
    await user.keyboard('hunter2');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Allowed origins (optional)'));
    expect(screen.getByLabelText('Allowed origins (optional)').getAttribute('aria-describedby')).toContain('hint');
    await user.keyboard('https://Bank.example{Enter}https://login.bank.example, http://127.0.0.1:8080');
    await user.tab();
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('status')).textContent).toContain('Stored bank_pw');
    expect(calls.find((c) => c.url.endsWith('/store_credential'))?.body).toEqual({
      name: 'bank_pw',
      value: 'hunter2',
      allowed_origins: ['https://Bank.example', 'https://login.bank.example', 'http://127.0.0.1:8080'],
    });
    expect((screen.getByLabelText('Allowed origins (optional)') as HTMLTextAreaElement).value).toBe('');
  });

  it('says which origin is not one, before any store call', async () => {
    const calls = fakeServer([]);
    renderSection();
    await screen.findByText('No credentials yet.');
    await userEvent.type(screen.getByLabelText('Name'), 'bank_pw');
    await userEvent.type(screen.getByLabelText('Value'), 'v');
    await userEvent.type(
      screen.getByLabelText('Allowed origins (optional)'),
      'https://bank.example{Enter}https://bank.example/login',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Store credential' }));
    const error = await screen.findByText(/"https:\/\/bank.example\/login" is not an origin/);
    expect(error.getAttribute('role')).toBe('alert');
    const field = screen.getByLabelText('Allowed origins (optional)');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(error.id);
    expect(calls.some((c) => c.url.endsWith('/store_credential'))).toBe(false);
  });

  it("shows the server's refusal of an origin on the field", async () => {
    const refusal = answer(422, {
      error: 'invalid_request',
      message: 'Invalid request',
      issues: [{ path: 'allowed_origins.0', message: 'not allowed here' }],
    });
    fakeServer([], {}, refusal);
    renderSection();
    await screen.findByText('No credentials yet.');
    await userEvent.type(screen.getByLabelText('Name'), 'bank_pw');
    await userEvent.type(screen.getByLabelText('Value'), 'v');
    await userEvent.type(screen.getByLabelText('Allowed origins (optional)'), 'https://bank.example');
    await userEvent.click(screen.getByRole('button', { name: 'Store credential' }));
    expect(await screen.findByText('Not allowed here.')).toBeTruthy();
    expect(screen.getByLabelText('Allowed origins (optional)').getAttribute('aria-invalid')).toBe('true');
  });

  it('replacing a credential starts from its own origins, and keeps what a person typed there', async () => {
    const calls = fakeServer(['bank_pw'], { bank_pw: ['https://bank.example'] });
    renderSection();
    await screen.findByRole('table');
    const origins = screen.getByLabelText('Allowed origins (optional)') as HTMLTextAreaElement;
    await userEvent.type(screen.getByLabelText('Name'), 'bank_pw');
    expect(origins.value).toBe('https://bank.example');
    expect(screen.getByText(/replaces its value and its allowed origins/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Value'), 'new value');
    await userEvent.click(screen.getByRole('button', { name: 'Replace value' }));
    expect((await screen.findByRole('status')).textContent).toContain('Replaced the value of bank_pw');
    expect(calls.find((c) => c.url.endsWith('/store_credential'))?.body).toEqual({
      name: 'bank_pw',
      value: 'new value',
      allowed_origins: ['https://bank.example'],
    });

    // Typed first, then a name that exists: the typed origins stay.
    await userEvent.type(origins, 'https://other.example');
    await userEvent.type(screen.getByLabelText('Name'), 'bank_pw');
    expect(origins.value).toBe('https://other.example');
  });

  it('asks for no list without an API key', () => {
    const calls = fakeServer([]);
    renderSection(false);
    expect(screen.getByText(/Save an API key above/)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
