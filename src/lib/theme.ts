/**
 * Light or dark: the system's (prefers-color-scheme) unless the header's toggle chose one. The
 * choice is kept in localStorage and shown as `data-theme` on <html>, which styles.css honours
 * alongside the media query; index.html sets it before the first paint (same key, same values),
 * so a chosen theme never flashes the other one.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export const THEME_KEY = 'browserdesk.theme';
/** Dispatched on window when the choice changes, for what draws its own colours (charts, /docs). */
export const THEME_EVENT = 'browserdesk:theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

const isChoice = (v: unknown): v is ThemeChoice =>
  typeof v === 'string' && (THEME_CHOICES as readonly string[]).includes(v);

export function readThemeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return isChoice(v) ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Apply and keep the choice; 'system' removes both (the media query decides again). */
export function setThemeChoice(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage off: the choice holds for this page only.
  }
  window.dispatchEvent(new Event(THEME_EVENT));
}

/** Whether the page is dark now, whichever decided it. */
export function isDark(): boolean {
  const forced = document.documentElement.getAttribute('data-theme');
  if (forced === 'dark') return true;
  if (forced === 'light') return false;
  return window.matchMedia?.(DARK_QUERY).matches ?? false;
}

/** Call `onChange` when the page may have turned light or dark (the system's scheme or the toggle); returns the unsubscribe. */
export function subscribeTheme(onChange: () => void): () => void {
  const media = window.matchMedia?.(DARK_QUERY);
  media?.addEventListener('change', onChange);
  window.addEventListener(THEME_EVENT, onChange);
  // Another tab's choice: follow it here too.
  const storage = (e: StorageEvent) => {
    if (e.key !== THEME_KEY) return;
    const v = e.newValue;
    if (isChoice(v) && v !== 'system') document.documentElement.setAttribute('data-theme', v);
    else document.documentElement.removeAttribute('data-theme');
    onChange();
  };
  window.addEventListener('storage', storage);
  return () => {
    media?.removeEventListener('change', onChange);
    window.removeEventListener(THEME_EVENT, onChange);
    window.removeEventListener('storage', storage);
  };
}
