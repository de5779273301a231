// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs } from './Tabs.tsx';

afterEach(cleanup);

const TABS = [
  { key: 'log', label: 'Log', panel: () => <p>the log</p> },
  { key: 'network', label: 'Network', panel: () => <p>the requests</p> },
  { key: 'more', label: 'More', panel: () => <p>more</p> },
] as const;

describe('Tabs', () => {
  it('shows the first panel; a panel is rendered when its tab is first chosen and kept after', async () => {
    render(<Tabs label="Records" tabs={TABS} />);
    expect(screen.getByRole('tablist', { name: 'Records' })).toBeTruthy();
    expect(screen.getByRole('tabpanel', { name: 'Log' }).textContent).toBe('the log');
    // Not loaded before it is asked for.
    expect(screen.queryByText('the requests')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Network' }));
    expect(screen.getByRole('tab', { name: 'Network' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Network' }).textContent).toBe('the requests');
    await userEvent.click(screen.getByRole('tab', { name: 'Log' }));
    // Hidden, not dropped: what it loaded stays.
    expect(
      screen.getByText('the requests', { selector: 'p' }).closest('[role="tabpanel"]')?.hasAttribute('hidden'),
    ).toBe(true);
  });

  it('takes one Tab stop; arrows wrap, Home and End jump, focus follows the selection', async () => {
    render(<Tabs label="Records" tabs={TABS} />);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Log' }));
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'More' }));
    expect(screen.getByText('more')).toBeTruthy();
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Log' }));
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'More' }));
    await userEvent.keyboard('{Home}{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Network' }));
    expect(screen.getAllByRole('tab').filter((t) => t.tabIndex === 0)).toHaveLength(1);
  });
});
