// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CopyAsCode } from './CopyAsCode.tsx';

const ID = '3f2a1c4e-8b7d-4e6f-9a01-23456789abcd';

/** A server that answers each format's script as text; the URLs asked. */
function fakeServer() {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      const format = new URL(url).searchParams.get('format');
      return new Response(`// ${format} script`, { status: 200, headers: { 'content-type': 'text/javascript' } });
    }),
  );
  return asked;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CopyAsCode', () => {
  it('copies the saved workflow as the Puppeteer or the Playwright script, fetched on click', async () => {
    const asked = fakeServer();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyAsCode id={ID} />);
    expect(asked).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Copy as Playwright' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('// playwright script'));
    await userEvent.click(screen.getByRole('button', { name: 'Copy as Puppeteer' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('// puppeteer script'));
    expect(asked.map((u) => new URL(u).pathname + new URL(u).search)).toEqual([
      `/api/workflow/${ID}/code?format=playwright`,
      `/api/workflow/${ID}/code?format=puppeteer`,
    ]);
  });

  it('says so when the script cannot be had', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: 'not_found', message: 'nope' }), { status: 404 })),
    );
    render(<CopyAsCode id={ID} />);
    await userEvent.click(screen.getByRole('button', { name: 'Copy as Puppeteer' }));
    expect(await screen.findByText('Copy failed: select and copy by hand')).toBeTruthy();
  });
});
