// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StepList } from './StepList.tsx';

const text = `{
  "title": "Search",
  "steps": [
    { "type": "navigate", "url": "https://example.com/" },
    { "type": "change", "value": "{{query}}", "selectors": [["input[name=q]"]] },
    { "type": "change", "value": "{{credentials.site_password}}", "selectors": [["#pw"]] },
    { "type": "customStep", "name": "uploadFile", "parameters": { "selectors": [["#file"]], "file": "report.pdf" } }
  ]
}
`;

let current = '';
beforeEach(() => {
  current = text;
});
function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MemoryRouter>
      <StepList
        text={value}
        onChange={(next) => {
          current = next;
          setValue(next);
        }}
      />
    </MemoryRouter>
  );
}

afterEach(cleanup);

describe('StepList', () => {
  it('lists each step in words with its selector and placeholders', () => {
    render(<Harness initial={text} />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((i) => i.querySelector('.flow-step-words')!.textContent)).toEqual([
      'Step 1: Go to https://example.com/',
      'Step 2: Type “{{query}}” into input[name=q]',
      'Step 3: Type “{{credentials.site_password}}” into #pw',
      'Step 4: Upload file report.pdf into #file',
    ]);
    expect(within(items[1]!).getByText('{{query}}', { selector: '.flow-placeholder' })).toBeTruthy();
    expect(screen.getByText('Uses the variable query.')).toBeTruthy();
    expect(screen.getByText('Uses the stored credential site_password.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Steps · 4' })).toBeTruthy();
  });

  it('writes a value into the JSON and nothing else', async () => {
    render(<Harness initial={text} />);
    const input = screen.getByRole('textbox', { name: 'Step 4 File name' });
    await userEvent.clear(input);
    await userEvent.type(input, 'a.csv');
    expect(current).toBe(text.replace('"report.pdf"', '"a.csv"'));
    expect(screen.getAllByRole('listitem')[3]!.querySelector('.flow-step-words')!.textContent).toBe(
      'Step 4: Upload file a.csv into #file',
    );
    expect(document.activeElement).toBe(input);
  });

  it('moves steps by keyboard-reachable buttons, focus following the step', async () => {
    render(<Harness initial={text} />);
    expect(screen.getByRole('button', { name: 'Move step 1 up' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Move step 1 down' }));
    expect((JSON.parse(current) as { steps: { type: string }[] }).steps.map((s) => s.type)).toEqual([
      'change',
      'navigate',
      'change',
      'customStep',
    ]);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move step 2 down' }));
    await userEvent.click(screen.getByRole('button', { name: 'Move step 2 up' }));
    expect(current).toBe(text);
    // At the top the Up button is off, so focus goes to Down.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move step 1 down' }));
  });

  it('deletes a step, and Undo brings the text back as it was', async () => {
    render(<Harness initial={text} />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete step 2' }));
    expect(current).not.toContain('{{query}}');
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('status').textContent).toContain('Step 2 (Type “{{query}}” into input[name=q]) deleted.');
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(document.activeElement).toBe(undo);
    await userEvent.click(undo);
    expect(current).toBe(text);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('shows the editor’s problems under the step whose lines they point at', () => {
    render(
      <StepList
        text={text}
        onChange={() => undefined}
        issues={[
          { line: 5, message: 'Step 2 (change) uses {{query}} but no variable query is declared' },
          { line: 2, message: 'not in a step' },
        ]}
      />,
    );
    const problems = screen.getByRole('list', { name: 'Problems in step 2' });
    expect(problems.textContent).toBe('Step 2 (change) uses {{query}} but no variable query is declared');
    expect(screen.queryByText('not in a step')).toBeNull();
  });

  it('says why there is no list while the JSON does not parse', () => {
    render(<Harness initial={'{ "title": '} />);
    expect(screen.getByText(/The steps show here when the flow is valid JSON/)).toBeTruthy();
  });

  it('adds a step from the Add step menu, by keyboard, and focuses its selector', async () => {
    render(<Harness initial={text} />);
    const toggle = screen.getByRole('button', { name: 'Add step' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const choices = screen.getByRole('list', { name: 'Step to add' });
    expect(within(choices).getAllByRole('button')).toHaveLength(10);
    expect(document.activeElement).toBe(within(choices).getByRole('button', { name: 'Go to' }));
    // Escape closes the list and gives the focus back.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Step to add' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
    // Open again, down to Click (wrapping up from the first goes to the last).
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Pause for a person' }));
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Click' }));
    await userEvent.keyboard('{Enter}');
    expect(screen.queryByRole('list', { name: 'Step to add' })).toBeNull();
    expect((JSON.parse(current) as { steps: unknown[] }).steps.at(-1)).toEqual({
      type: 'click',
      selectors: [['button']],
    });
    const selector = screen.getByRole('textbox', { name: 'Step 5 Selector' });
    expect(document.activeElement).toBe(selector);
    await userEvent.clear(selector);
    await userEvent.type(selector, '#go');
    expect((JSON.parse(current) as { steps: unknown[] }).steps.at(-1)).toEqual({ type: 'click', selectors: [['#go']] });
    expect(screen.getByRole('heading', { name: 'Steps · 5' })).toBeTruthy();
  });

  it("adds a step after a chosen one from that step's own menu, and focuses it there", async () => {
    render(<Harness initial={text} />);
    const after = screen.getByRole('button', { name: 'Add a step after step 1' });
    expect(after.textContent).toBe('+ Step after');
    await userEvent.click(after);
    // Its own list, named apart from the list's end menu, which stays closed.
    expect(screen.getAllByRole('list', { name: 'Step to add' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Add step' }).getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(after.getAttribute('aria-controls')!)).toBeTruthy();
    // Opening another step's menu closes this one: one menu at most, so none is left on a moved step.
    const afterSecond = screen.getByRole('button', { name: 'Add a step after step 2' });
    await userEvent.click(afterSecond);
    expect(after.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getAllByRole('list', { name: 'Step to add' })).toHaveLength(1);
    await userEvent.click(after);
    expect(afterSecond.getAttribute('aria-expanded')).toBe('false');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    const steps = (JSON.parse(current) as { steps: { type: string }[] }).steps;
    expect(steps.map((st) => st.type)).toEqual(['navigate', 'click', 'change', 'change', 'customStep']);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Step 2 Selector' }));
    // The steps after it keep their text: the old step 2 is step 3, as written.
    expect(current).toContain('\n    { "type": "change", "value": "{{query}}", "selectors": [["input[name=q]"]] },\n');
  });

  it('offers the agent and Add step when there are no steps; a key press is added as one key', async () => {
    render(<Harness initial={'{\n  "title": "New",\n  "steps": []\n}\n'} />);
    expect(screen.getByText(/No steps yet/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Record with the agent' }).getAttribute('href')).toBe('/agent');
    await userEvent.click(screen.getByRole('button', { name: 'Add step' }));
    await userEvent.click(screen.getByRole('button', { name: 'Press a key' }));
    const key = screen.getByRole('textbox', { name: 'Step 1 Key' });
    expect(document.activeElement).toBe(key);
    await userEvent.clear(key);
    await userEvent.type(key, 'Tab');
    expect(JSON.parse(current)).toEqual({
      title: 'New',
      steps: [
        { type: 'keyDown', key: 'Tab' },
        { type: 'keyUp', key: 'Tab' },
      ],
    });
  });
});
