/**
 * Where the dashboard talks to and with which key. Kept in localStorage so a reload keeps it; the
 * key never goes into a URL.
 */
export interface Settings {
  /** The API's base address, e.g. http://host:8080/api (the spec's {base_url}). */
  baseUrl: string;
  apiKey: string;
}

const KEY = 'browserdesk.settings';

/** This server's own API, the default when nothing is saved. */
export function defaultBaseUrl(): string {
  return `${window.location.origin}/api`;
}

export function loadSettings(): Settings {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<Settings>;
      return {
        baseUrl: typeof parsed.baseUrl === 'string' && parsed.baseUrl ? parsed.baseUrl : defaultBaseUrl(),
        apiKey: typeof parsed.apiKey === 'string' ? parsed.apiKey : '',
      };
    }
  } catch {
    // A corrupt entry is as good as none.
  }
  return { baseUrl: defaultBaseUrl(), apiKey: '' };
}

const listeners = new Set<() => void>();

export function saveSettings(s: Settings): void {
  window.localStorage.setItem(KEY, JSON.stringify({ baseUrl: s.baseUrl.replace(/\/+$/, ''), apiKey: s.apiKey }));
  for (const listener of listeners) listener();
}

/**
 * Calls `listener` after settings are saved, here or in another tab (the storage event), for what
 * holds a connection open with them (the event stream). Returns the unsubscribe.
 */
export function onSettingsChange(listener: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === KEY || e.key === null) listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function hasApiKey(): boolean {
  return loadSettings().apiKey.length > 0;
}
