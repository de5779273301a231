// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { typedNameProblems, type TypedChoice } from './typed-values.ts';
import { TypedValueChoices } from './TypedValueChoices.tsx';

const offers = [
  { index: 2, value: 'hello', suggested: 'first' },
  { index: 4, value: 'L', suggested: 'size' },
];
let last: Record<number, TypedChoice> = {};
function Harness({ declared }: { declared?: string[] }) {
  const [choices, setChoices] = useState<Record<number, TypedChoice>>({});
  return (
    <TypedValueChoices
      offers={offers}
      choices={choices}
      problems={typedNameProblems(choices)}
      onChoose={(i, c) => {
        last = { ...last, [i]: c };
        setChoices((all) => ({ ...all, [i]: c }));
      }}
      declared={declared}
    />
  );
}

afterEach(() => {
  cleanup();
  last = {};
});

describe('TypedValueChoices', () => {
  it('ticks a value by keyboard, names it from the suggestion, and says what is wrong with a name', async () => {
    render(<Harness />);
    expect(screen.getByRole('group', { name: 'Make typed values variables' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    const tick = screen.getByRole('checkbox', { name: 'Make “hello” (step 3) a variable' });
    tick.focus();
    await userEvent.keyboard(' ');
    const name = screen.getByRole('textbox', { name: 'Name of the variable for “hello”' });
    expect(name).toHaveProperty('value', 'first');
    expect(last[2]).toEqual({ make: true, name: 'first' });

    await userEvent.clear(name);
    await userEvent.type(name, '1st');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const error = document.getElementById(name.getAttribute('aria-describedby')!)!;
    expect(error.textContent).toMatch(/letters, digits and _/);
    await userEvent.clear(name);
    await userEvent.type(name, 'greeting');
    expect(name.getAttribute('aria-invalid')).toBe('false');
    expect(last[2]).toEqual({ make: true, name: 'greeting' });
    expect(last[4]).toBeUndefined();
  });

  it('says when a name is one the workflow declares already: allowed, the step uses that variable', async () => {
    render(<Harness declared={['email']} />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Make “hello” (step 3) a variable' }));
    const name = screen.getByRole('textbox', { name: 'Name of the variable for “hello”' });
    expect(name.getAttribute('aria-describedby')).toBeNull();
    await userEvent.clear(name);
    await userEvent.type(name, 'email');
    expect(name.getAttribute('aria-invalid')).toBe('false');
    const note = document.getElementById(name.getAttribute('aria-describedby')!)!;
    expect(note.textContent).toMatch(/has a variable email already: this step will use it/);
    await userEvent.type(name, '2');
    expect(name.getAttribute('aria-describedby')).toBeNull();
  });
});
