import type { FastifyInstance } from 'fastify';
import { unauthorized } from './errors.ts';
import { verifyApiKey } from './apiKeys.ts';

/** Paths under /api that need no key. */
const OPEN = new Set(['/api/healthz', '/api/openapi.json']);

/**
 * Every /api route needs X-API-Key. Only the header counts: a key in the query string is ignored,
 * because URLs end up in logs and browser history.
 */
export function installApiKeyAuth(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    const pathname = req.url.split('?')[0]!;
    if (!pathname.startsWith('/api/') || OPEN.has(pathname) || req.method === 'OPTIONS') return;
    const header = req.headers['x-api-key'];
    const id = verifyApiKey(app.store.apiKeys, typeof header === 'string' ? header : undefined);
    if (!id) throw unauthorized();
  });
}
