// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StepList } from './StepList.tsx';
import { linkedStepIndex } from './use-linked-step.ts';

describe('linkedStepIndex', () => {
  it('reads the step a failed run links to, numbered from 1 as the run says it', () => {
    expect(linkedStepIndex('#step-2')).toBe(1);
    expect(linkedStepIndex('#step-1')).toBe(0);
  });
  it('ignores any other address', () => {
    for (const hash of ['', '#step-0', '#step-', '#step-2x', '#flow', '#step-1-url'])
      expect(linkedStepIndex(hash)).toBeUndefined();
  });
});

const flow = JSON.stringify({
  title: 't',
  steps: [
    { type: 'navigate', url: 'https://example.com/' },
    { type: 'click', selectors: [['#missing']], offsetX: 1, offsetY: 1 },
  ],
});

afterEach(() => {
  cleanup();
  window.location.hash = '';
  vi.restoreAllMocks();
});

describe('the step list opened at a step', () => {
  it('brings the linked step into view, focuses and marks it, and only it', () => {
    window.location.hash = '#step-2';
    // jsdom lays nothing out: scrolling is only recorded.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    render(<StepList text={flow} onChange={() => undefined} />);
    const items = screen.getAllByRole('listitem').filter((li) => li.classList.contains('flow-step'));
    expect(items.map((li) => li.getAttribute('aria-current'))).toEqual([null, 'step']);
    expect(document.activeElement).toBe(items[1]);
    expect(scrolled).toEqual([items[1]]);
  });

  it('marks nothing for a step the flow does not have', () => {
    window.location.hash = '#step-9';
    render(<StepList text={flow} onChange={() => undefined} />);
    expect(document.querySelector('[aria-current]')).toBeNull();
  });
});
