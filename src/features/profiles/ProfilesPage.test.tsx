// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { fakeProfilesServer, profile, SESSION, withSavedKey } from './profile-fixtures.ts';
import { ProfilesPage } from './ProfilesPage.tsx';

const STATE = JSON.stringify({
  cookies: [
    {
      name: 'sid',
      value: 'abc',
      domain: 'example.com',
      path: '/',
      expires: -1,
      httpOnly: true,
      secure: true,
      sameSite: 'Lax',
    },
  ],
  origins: [],
});

function renderPage() {
  const router = createMemoryRouter(
    [
      { path: '/profiles', Component: ProfilesPage },
      { path: '/profiles/:name', Component: () => <p>profile page</p> },
    ],
    { initialEntries: ['/profiles'] },
  );
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

withSavedKey();

describe('ProfilesPage', () => {
  it('lists each profile with its size, version and versions kept, last use and the sessions using it', async () => {
    fakeProfilesServer([
      profile('shop-login', { in_use_by: [{ session_id: SESSION, persist: true, since: '2026-11-26T11:00:00.000Z' }] }),
      profile('blank', { size: 0, version: null, versions: [], last_used_at: null }),
    ]);
    renderPage();
    const shop = (await screen.findByRole('link', { name: 'shop-login' })).closest('tr')!;
    expect(within(shop).getByText('2.0 KB')).toBeTruthy();
    expect(within(shop).getByText('2 (2 kept)')).toBeTruthy();
    expect(
      within(shop)
        .getByRole('link', { name: /Session 11111111/ })
        .getAttribute('href'),
    ).toBe(`/sessions/${SESSION}`);
    expect(within(shop).getByText('(saves back)')).toBeTruthy();
    const blank = screen.getByRole('link', { name: 'blank' }).closest('tr')!;
    expect(within(blank).getByText('None yet')).toBeTruthy();
    expect(within(blank).getByText('Never')).toBeTruthy();
    expect(within(blank).getByText('No session')).toBeTruthy();
  });

  it('explains what a profile is when there is none', async () => {
    fakeProfilesServer([]);
    renderPage();
    expect(await screen.findByText(/No profiles yet/)).toBeTruthy();
    expect(screen.getByText(/A profile is a saved browser state/)).toBeTruthy();
  });

  it('checks the name and the storage state before any create call', async () => {
    const calls = fakeProfilesServer([]);
    renderPage();
    await screen.findByText(/No profiles yet/);
    await userEvent.type(screen.getByLabelText('Name'), 'my login');
    await userEvent.type(screen.getByLabelText('Storage state (optional)'), '{{"cookies": 1}');
    await userEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(await screen.findByText(/^A profile name is 1 to 64 characters/)).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/^Storage state must be a Playwright storage state/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('creates one from a pasted storage state, says so and lists it', async () => {
    const calls = fakeProfilesServer([]);
    renderPage();
    await screen.findByText(/No profiles yet/);
    await userEvent.type(screen.getByLabelText('Name'), 'shop-login');
    await userEvent.click(screen.getByLabelText('Storage state (optional)'));
    await userEvent.paste(STATE);
    await userEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect((await screen.findByRole('status')).textContent).toContain('Created the profile shop-login');
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/profiles',
      body: { name: 'shop-login', storage_state: STATE },
    });
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
    const table = await screen.findByRole('table');
    const row = within(table).getByRole('link', { name: 'shop-login' }).closest('tr')!;
    expect(within(row).getByText('1 (1 kept)')).toBeTruthy();
  });

  it('reads a storage state from a chosen file', async () => {
    const calls = fakeProfilesServer([]);
    renderPage();
    await screen.findByText(/No profiles yet/);
    await userEvent.type(screen.getByLabelText('Name'), 'from-file');
    const file = new File([STATE], 'state.json', { type: 'application/json' });
    await userEvent.upload(screen.getByLabelText('Import a storage state file (optional)'), file);
    expect(await screen.findByText(/Read state.json/)).toBeTruthy();
    expect((screen.getByLabelText('Storage state (optional)') as HTMLTextAreaElement).value).toBe(STATE);
    await userEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'from-file', storage_state: STATE }),
    );
  });

  it("puts the server's 409 for a taken name on the name field", async () => {
    fakeProfilesServer([profile('shop-login')], {
      'POST /api/profiles': { status: 409, message: 'A profile named shop-login exists already' },
    });
    renderPage();
    await screen.findByRole('link', { name: 'shop-login' });
    await userEvent.type(screen.getByLabelText('Name'), 'shop-login');
    await userEvent.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(await screen.findByText('A profile named shop-login exists already')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
  });
});
