import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../client.ts';
import { ApiError } from '../errors.ts';
import type { Settings } from '../settings.ts';

export type ConnectionResult = { ok: true } | { ok: false; field: 'baseUrl' | 'apiKey'; message: string };

/**
 * Check a base URL and key with GET /server_info: it needs the key, costs nothing and logs no
 * failed request (the old check sent an empty /write, which logged a 422 every time).
 */
export async function checkConnection(settings: Settings): Promise<ConnectionResult> {
  try {
    await apiFetch('/server_info', { settings, quiet401: true });
    return { ok: true };
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.status === 401) return { ok: false, field: 'apiKey', message: 'The server refused this API key (401).' };
      if (err.status === 404)
        return {
          ok: false,
          field: 'baseUrl',
          message: 'No Browserdesk API answers at this base URL (404 for /server_info). It usually ends in /api.',
        };
      return { ok: false, field: 'baseUrl', message: err.message };
    }
    return { ok: false, field: 'baseUrl', message: err instanceof Error ? err.message : 'Could not reach the server.' };
  }
}

export function useCheckConnection() {
  return useMutation({ mutationFn: checkConnection });
}
