// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusLine } from './StatusLine.tsx';

afterEach(cleanup);

describe('StatusLine', () => {
  it("says the page's own words while connecting, and the viewer's own once connected or ended", () => {
    const words = 'Running, 1 of 2 steps done: opening the live view…';
    const { rerender } = render(<StatusLine status={{ state: 'connecting' }} connectingText={words} />);
    expect(screen.getByRole('status').textContent).toBe(words);
    rerender(<StatusLine status={{ state: 'connected' }} connectingText={words} />);
    expect(screen.getByRole('status').textContent).toBe('Connected');
    rerender(<StatusLine status={{ state: 'ended' }} connectingText={words} />);
    expect(screen.getByRole('status').textContent).toBe('Session ended');
  });

  it('says Connecting… when the page has nothing more to say', () => {
    render(<StatusLine status={{ state: 'connecting' }} />);
    expect(screen.getByRole('status').textContent).toBe('Connecting…');
  });
});
