// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { TabList, tabId, tabPanelId } from './TabList.tsx';

const TABS = [
  { key: 'a', label: 'First' },
  { key: 'b', label: 'Second' },
  { key: 'c', label: 'Third' },
] as const;

function Tabs() {
  const [tab, setTab] = useState<(typeof TABS)[number]['key']>('a');
  return (
    <>
      <TabList idBase="t" label="Things" tabs={TABS} selected={tab} onSelect={setTab} />
      {TABS.map((t) => (
        <div
          key={t.key}
          role="tabpanel"
          id={tabPanelId('t', t.key)}
          aria-labelledby={tabId('t', t.key)}
          hidden={tab !== t.key}
        >
          {t.label} panel
        </div>
      ))}
    </>
  );
}

afterEach(cleanup);

describe('TabList', () => {
  it('names the list, ties each tab to its panel and keeps only the selected tab in the tab order', () => {
    render(<Tabs />);
    expect(screen.getByRole('tablist', { name: 'Things' })).toBeTruthy();
    const first = screen.getByRole('tab', { name: 'First' });
    expect(first.getAttribute('aria-selected')).toBe('true');
    expect(first.getAttribute('aria-controls')).toBe('t-panel-a');
    expect(first.tabIndex).toBe(0);
    expect(screen.getByRole('tab', { name: 'Second' }).tabIndex).toBe(-1);
    expect(document.getElementById('t-panel-a')?.getAttribute('aria-labelledby')).toBe(first.id);
    expect(screen.getByRole('tabpanel').textContent).toBe('First panel');
  });

  it('moves selection and focus with the arrows (wrapping), Home and End', async () => {
    render(<Tabs />);
    await userEvent.tab();
    expect(document.activeElement?.id).toBe('t-tab-a');
    await userEvent.keyboard('{ArrowLeft}');
    expect(document.activeElement?.id).toBe('t-tab-c');
    expect(screen.getByRole('tabpanel').textContent).toBe('Third panel');
    await userEvent.keyboard('{ArrowRight}');
    expect(document.activeElement?.id).toBe('t-tab-a');
    await userEvent.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Third' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.keyboard('{Home}');
    expect(document.activeElement?.id).toBe('t-tab-a');
    await userEvent.click(screen.getByRole('tab', { name: 'Second' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('Second panel');
  });
});
