// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { flowTextFor, rememberFlowText } from './flow-layout.ts';

const flow = { title: 't', steps: [{ type: 'navigate', url: 'https://example.com/' }] };
const compact = '{"title": "t",\n "steps": [ {"type": "navigate", "url": "https://example.com/"} ]}';

describe('flow layout kept by this browser', () => {
  beforeEach(() => localStorage.clear());

  it('shows the text as saved while it says the same as the stored flow', () => {
    rememberFlowText('a', compact);
    expect(flowTextFor('a', flow)).toBe(compact);
  });

  it('falls back to the Recorder layout when the flow changed elsewhere, or nothing was kept', () => {
    rememberFlowText('a', compact);
    const changed = { ...flow, title: 'other' };
    expect(flowTextFor('a', changed)).toBe(`${JSON.stringify(changed, null, 2)}\n`);
    expect(flowTextFor('b', flow)).toBe(`${JSON.stringify(flow, null, 2)}\n`);
    // Keys in another order are another text: the server keeps the order as written.
    rememberFlowText('c', '{"steps": [{"type": "navigate", "url": "https://example.com/"}], "title": "t"}');
    expect(flowTextFor('c', flow)).toBe(`${JSON.stringify(flow, null, 2)}\n`);
  });

  it('keeps at most 50 workflows, dropping the oldest', () => {
    for (let i = 0; i < 55; i++) rememberFlowText(`w${i}`, compact);
    expect(flowTextFor('w0', flow)).not.toBe(compact);
    expect(flowTextFor('w54', flow)).toBe(compact);
    expect(Object.keys(JSON.parse(localStorage.getItem('browserdesk.flowLayouts')!) as object)).toHaveLength(50);
  });
});
