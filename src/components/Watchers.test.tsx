// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Watchers, watchersText } from './Watchers.tsx';

afterEach(cleanup);

describe('Watchers', () => {
  it('says who is connected, taking this page’s own views off as "you"', () => {
    expect(watchersText({ viewers: 1, cdp: 0 }, 1)).toBe('Watching: you');
    expect(watchersText({ viewers: 3, cdp: 1 }, 1)).toBe('Watching: you + 2 viewers · 1 CDP client');
    expect(watchersText({ viewers: 2, cdp: 2 }, 1)).toBe('Watching: you + 1 viewer · 2 CDP clients');
    // Before the page's own viewer has connected, never a negative count.
    expect(watchersText({ viewers: 0, cdp: 1 }, 1)).toBe('Watching: you · 1 CDP client');
  });

  it('shows nothing without counts (an ended session, an older server)', () => {
    const { container, rerender } = render(<Watchers clients={null} own={1} />);
    expect(container.innerHTML).toBe('');
    rerender(<Watchers clients={{ viewers: 4, cdp: 0 }} own={1} />);
    expect(screen.getByTestId('session-watchers').textContent).toBe('Watching: you + 3 viewers');
  });
});
