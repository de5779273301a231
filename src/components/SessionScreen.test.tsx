// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionScreen } from './SessionScreen.tsx';

// The viewers themselves open streams; here only which one is chosen matters.
vi.mock('./LazyViewers.tsx', () => ({
  LazyVncViewer: ({ label }: { label: string }) => <p>noVNC {label}</p>,
  LazyScreencastViewer: ({ label }: { label: string }) => <p>screencast {label}</p>,
}));

afterEach(cleanup);

describe('SessionScreen', () => {
  it('waits for the kind, then speaks RFB to a browser session and the screencast to a context session', () => {
    const { rerender } = render(<SessionScreen isolation={undefined} url="ws://x/s/1/vnc" label="view" />);
    expect(screen.getByText('Loading the viewer…')).toBeTruthy();
    rerender(<SessionScreen isolation="browser" url="ws://x/s/1/vnc" label="view" />);
    expect(screen.getByText('noVNC view')).toBeTruthy();
    rerender(<SessionScreen isolation="context" url="ws://x/s/1/vnc" label="view" />);
    expect(screen.getByText('screencast view')).toBeTruthy();
  });
});
