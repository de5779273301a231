// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlaceholderChoice } from './kept-recording.ts';
import { PlaceholderChoices } from './PlaceholderChoices.tsx';

let chosen: Record<string, PlaceholderChoice> = {};
function Harness({ credentials }: { credentials: string[] | undefined }) {
  const [names, setNames] = useState<Record<string, PlaceholderChoice>>({});
  return (
    <PlaceholderChoices
      variables={[{ name: 'password', type: 'string', required: true }]}
      names={names}
      credentials={credentials}
      onChoose={(p, c) => {
        chosen = { ...chosen, [p]: c };
        setNames((n) => ({ ...n, [p]: c }));
      }}
    />
  );
}

afterEach(() => {
  cleanup();
  chosen = {};
});

describe('PlaceholderChoices', () => {
  it('names the placeholder as a variable by default, renamed as typed', async () => {
    render(<Harness credentials={['shop_login']} />);
    const group = screen.getByRole('group', { name: 'Placeholder {{password}}' });
    expect(screen.getByRole('radio', { name: 'A variable, given at each run' })).toHaveProperty('checked', true);
    const name = screen.getByRole('textbox', { name: 'Variable name' });
    expect(group.contains(name)).toBe(true);
    expect(name).toHaveProperty('value', 'password');
    await userEvent.clear(name);
    await userEvent.type(name, 'shop_pw');
    expect(chosen.password).toEqual({ kind: 'variable', name: 'shop_pw' });
  });

  it('offers the stored credentials, by keyboard too, and writes the one picked', async () => {
    render(<Harness credentials={['shop_login', 'other']} />);
    const credential = screen.getByRole('radio', { name: 'A stored credential, typed by the runner' });
    credential.focus();
    await userEvent.keyboard(' ');
    expect(chosen.password).toEqual({ kind: 'credential', name: 'shop_login' });
    const select = screen.getByRole('combobox', { name: 'Credential' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      '{{credentials.shop_login}}',
      '{{credentials.other}}',
    ]);
    await userEvent.selectOptions(select, 'other');
    expect(chosen.password).toEqual({ kind: 'credential', name: 'other' });
    expect(screen.queryByRole('textbox', { name: 'Variable name' })).toBeNull();
  });

  it('says so when no credential is stored, and does not offer the choice', () => {
    render(<Harness credentials={[]} />);
    const credential = screen.getByRole('radio', { name: 'A stored credential, typed by the runner' });
    expect(credential).toHaveProperty('disabled', true);
    expect(credential.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(credential.getAttribute('aria-describedby')!)!.textContent).toMatch(
      /No credentials are stored yet/,
    );
  });
});
