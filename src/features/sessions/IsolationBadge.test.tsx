// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFixture } from '../../lib/session-fixture.ts';
import { isolationOf } from '../../lib/isolation.ts';
import { IsolationBadge } from './IsolationBadge.tsx';

afterEach(cleanup);

describe('which kind a session is', () => {
  it('reads the answer defensively: no field, or one it does not know, is a browser session', () => {
    expect(isolationOf({ ...sessionFixture(), isolation: 'context' })).toBe('context');
    expect(isolationOf(sessionFixture())).toBe('browser');
    expect(isolationOf({ isolation: 'something-new' })).toBe('browser');
    expect(isolationOf(undefined)).toBe('browser');
  });

  it('names a context session, and names a browser session unless quiet', () => {
    const { container, rerender } = render(
      <IsolationBadge session={{ ...sessionFixture(), isolation: 'context' }} quiet />,
    );
    expect(screen.getByText('context')).toBeTruthy();
    expect(container.textContent).toContain('shared with other sessions of the same API key');
    rerender(<IsolationBadge session={sessionFixture()} quiet />);
    expect(container.textContent).toBe('');
    rerender(<IsolationBadge session={sessionFixture()} />);
    expect(container.textContent).toContain('own browser');
  });
});
