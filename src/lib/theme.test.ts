// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDark, readThemeChoice, setThemeChoice, subscribeTheme, THEME_KEY } from './theme.ts';

const root = () => document.documentElement;

afterEach(() => {
  localStorage.clear();
  root().removeAttribute('data-theme');
  vi.unstubAllGlobals();
});

describe('theme choice', () => {
  it('is the system by default, and an unknown stored value counts as the system', () => {
    expect(readThemeChoice()).toBe('system');
    localStorage.setItem(THEME_KEY, 'purple');
    expect(readThemeChoice()).toBe('system');
  });

  it('sets data-theme on <html> and keeps the choice; System removes both', () => {
    setThemeChoice('dark');
    expect(root().getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(readThemeChoice()).toBe('dark');
    expect(isDark()).toBe(true);
    setThemeChoice('light');
    expect(isDark()).toBe(false);
    setThemeChoice('system');
    expect(root().hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
  });

  it('follows the system when no choice is made', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({
      matches: q.includes('dark'),
      addEventListener() {},
      removeEventListener() {},
    }));
    expect(isDark()).toBe(true);
    setThemeChoice('light');
    expect(isDark()).toBe(false);
  });

  it('tells subscribers when the choice changes, here or in another tab', () => {
    const seen = vi.fn();
    const stop = subscribeTheme(seen);
    setThemeChoice('dark');
    expect(seen).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY, newValue: 'light' }));
    expect(root().getAttribute('data-theme')).toBe('light');
    expect(seen).toHaveBeenCalledTimes(2);
    stop();
    setThemeChoice('system');
    expect(seen).toHaveBeenCalledTimes(2);
  });
});
