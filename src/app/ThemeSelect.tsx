import { useEffect, useState } from 'react';
import { readThemeChoice, setThemeChoice, subscribeTheme, type ThemeChoice } from '../lib/theme.ts';

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The header's theme toggle: a labelled select, System (follow the device), Light or Dark; kept in this browser. */
export function ThemeSelect() {
  const [choice, setChoice] = useState<ThemeChoice>(readThemeChoice);
  // A choice made in another tab shows here too.
  useEffect(() => subscribeTheme(() => setChoice(readThemeChoice())), []);
  return (
    <div className="theme-select">
      <label htmlFor="theme-choice">Theme</label>
      <select
        id="theme-choice"
        value={choice}
        onChange={(e) => {
          const next = e.target.value as ThemeChoice;
          setThemeChoice(next);
          setChoice(next);
        }}
      >
        {(Object.keys(LABELS) as ThemeChoice[]).map((c) => (
          <option key={c} value={c}>
            {LABELS[c]}
          </option>
        ))}
      </select>
    </div>
  );
}
