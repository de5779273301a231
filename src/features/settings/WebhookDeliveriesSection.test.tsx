// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery } from '../../../contract/webhookDeliveries.ts';
import { renderWithQuery } from '../../lib/render-with-query.tsx';
import { failedDelivery } from './delivery-fixture.ts';
import { WebhookDeliveriesSection } from './WebhookDeliveriesSection.tsx';

const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const failed = failedDelivery;

/** A server with these deliveries; a retry answers `retried`. Returns the calls made. */
function fakeServer(items: WebhookDelivery[], retried: Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = new URL(url).pathname;
      calls.push(`${init.method ?? 'GET'} ${path}`);
      if (path.endsWith('/retry')) return retried;
      return answer(200, { items, next_cursor: null });
    }),
  );
  return calls;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WebhookDeliveriesSection', () => {
  it('says in words that nothing was sent yet', async () => {
    fakeServer([], answer(404, {}));
    renderWithQuery(<WebhookDeliveriesSection connected />);
    expect(await screen.findByText(/No webhooks sent yet/)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('asks for a key before reading anything', () => {
    const calls = fakeServer([failed], answer(404, {}));
    renderWithQuery(<WebhookDeliveriesSection connected={false} />);
    expect(screen.getByText(/Save an API key above to see the webhooks this server sent/)).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('retries a failed delivery and says it failed again, and why', async () => {
    const calls = fakeServer(
      [failed],
      answer(200, { ...failed, attempts: 9, last_attempt_at: '2026-11-28T10:00:00.000Z' }),
    );
    renderWithQuery(<WebhookDeliveriesSection connected />);
    const row = (await screen.findByText('https://hooks.example.com/in')).closest('tr')!;
    expect(within(row).getByText('Failed (500)')).toBeTruthy();
    await userEvent.click(within(row).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Not delivered: run.completed to https:\/\/hooks.example.com\/in failed again \(destination answered 500\)/,
    );
    expect(calls).toContain(`POST /api/webhooks/deliveries/${failed.id}/retry`);
  });

  it("shows the server's refusal of a retry", async () => {
    fakeServer(
      [failed],
      answer(409, {
        error: 'conflict',
        message: 'Only a failed, disabled or refused delivery can be retried; this one is delivered',
      }),
    );
    renderWithQuery(<WebhookDeliveriesSection connected />);
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The delivery was not retried.');
    expect(alert.textContent).toContain('this one is delivered');
  });
});
