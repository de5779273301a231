// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { recallSession } from '../../lib/session-memory.ts';
import { fakeProfilesServer, profile, SESSION, withSavedKey } from './profile-fixtures.ts';
import { ProfilePage } from './ProfilePage.tsx';

function renderAt(name: string) {
  const router = createMemoryRouter(
    [
      { path: '/profiles', Component: () => <p>profiles list</p> },
      { path: '/profiles/:name', Component: ProfilePage },
      { path: '/sessions/:id', Component: () => <p>session page</p> },
    ],
    { initialEntries: [`/profiles/${name}`] },
  );
  renderWithQuery(<RouterProvider router={router} />);
  return router;
}

// The confirmation is a native <dialog> that jsdom never opens, so its buttons are found among the hidden.
const confirmButton = (name: string) => screen.getByRole('button', { name, hidden: true });

withSavedKey();

describe('ProfilePage', () => {
  it('shows its versions, newest first, with where each came from; the current one cannot be restored', async () => {
    fakeProfilesServer([profile('shop-login')]);
    renderAt('shop-login');
    const versions = await screen.findByRole('table');
    const [, newest, oldest] = within(versions).getAllByRole('row');
    expect(within(newest!).getByText('Current')).toBeTruthy();
    expect(
      within(newest!)
        .getByRole('link', { name: /session 11111111/ })
        .getAttribute('href'),
    ).toBe(`/sessions/${SESSION}`);
    expect(within(oldest!).getByText('Imported')).toBeTruthy();
    expect(within(oldest!).getByRole('button', { name: /^Restore\s*version 1$/ })).toBeTruthy();
  });

  it('restores a version after the confirmation, posting its number', async () => {
    const calls = fakeProfilesServer([profile('shop-login')]);
    renderAt('shop-login');
    await userEvent.click(await screen.findByRole('button', { name: /^Restore\s*version 1$/ }));
    expect(screen.getByText(/Version 1 of/).textContent).toContain('is copied as version 3');
    await userEvent.click(confirmButton('Restore'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')).toEqual({
        method: 'POST',
        path: '/api/profiles/shop-login/restore',
        body: { version: 1 },
      }),
    );
    expect((await screen.findByRole('status')).textContent).toContain('Restored version 1: it is now version 3');
    expect(within(screen.getByRole('table')).getByText('Restored from version 1')).toBeTruthy();
  });

  it("deletes only after the confirmation, and shows the server's 409 naming the session using it", async () => {
    const message = `Profile shop-login is in use by session ${SESSION}: end that session first`;
    const calls = fakeProfilesServer([profile('shop-login')], {
      'DELETE /api/profiles/shop-login': { status: 409, message },
    });
    renderAt('shop-login');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete profile…' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(confirmButton('Delete profile'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The profile was not deleted.');
    expect(alert.textContent).toContain(message);
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('goes back to the list once deleted', async () => {
    const calls = fakeProfilesServer([profile('shop-login')]);
    const router = renderAt('shop-login');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete profile…' }));
    await userEvent.click(confirmButton('Delete profile'));
    expect(await screen.findByText('profiles list')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profiles');
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/profiles/shop-login');
  });

  it('logs in by hand: a full-browser session from the profile that saves back, then its live view', async () => {
    const calls = fakeProfilesServer([profile('shop-login')]);
    const router = renderAt('shop-login');
    await userEvent.click(await screen.findByRole('button', { name: 'Open a browser to log in' }));
    expect(await screen.findByText('Start URL must be an http(s) URL.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Start URL'), 'https://shop.example/login');
    await userEvent.click(screen.getByRole('button', { name: 'Open a browser to log in' }));
    expect(await screen.findByText('session page')).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/sessions/${SESSION}`);
    expect(calls.find((c) => c.path === '/api/create_workflow_session')?.body).toEqual({
      workflow_name: 'Log in to profile shop-login',
      start_url: 'https://shop.example/login',
      presentation: 'browser',
      profile: { name: 'shop-login', persist: true },
    });
    expect(recallSession(SESSION)?.profile).toEqual({ name: 'shop-login', persist: true });
  });

  it('says when there is no such profile', async () => {
    fakeProfilesServer([]);
    renderAt('gone');
    expect((await screen.findByRole('alert')).textContent).toContain('No such profile.');
  });
});
