import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../client.ts';
import { ApiError } from '../errors.ts';
import type { Settings } from '../settings.ts';

export type ConnectionResult = { ok: true } | { ok: false; field: 'baseUrl' | 'apiKey'; message: string };

/**
 * Check a base URL and key with a call every implementation of the spec answers and that costs
 * nothing: POST /write with an empty prompt. A right key gets 422 (empty prompt), a wrong one 401.
 */
export async function checkConnection(settings: Settings): Promise<ConnectionResult> {
  try {
    await apiFetch('/write', { body: { prompt: '' }, settings, quiet401: true });
    return { ok: true }; // a server that accepts an empty prompt still took the key
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.status === 422 || err.status === 400) return { ok: true };
      if (err.status === 401) return { ok: false, field: 'apiKey', message: 'The server refused this API key (401).' };
      if (err.status === 404) return { ok: false, field: 'baseUrl', message: 'No API answers at this base URL (404 for /write). It usually ends in /api.' };
      return { ok: false, field: 'baseUrl', message: err.message };
    }
    return { ok: false, field: 'baseUrl', message: err instanceof Error ? err.message : 'Could not reach the server.' };
  }
}

export function useCheckConnection() {
  return useMutation({ mutationFn: checkConnection });
}
