import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { markRoutes } from './auth.ts';
import { sendRouteNotFound } from './errors.ts';

export const DIST_DIR = path.resolve(import.meta.dirname, '../../dist');

/**
 * Serve the built dashboard at / with a single-page-app fallback: a GET for an unknown path that
 * is not under /api or /s and wants HTML gets index.html, so deep links work.
 */
export async function serveDashboard(app: FastifyInstance): Promise<void> {
  const hasBuild = fs.existsSync(path.join(DIST_DIR, 'index.html'));
  // One scope for the files and the fallback (sendFile is decorated inside it); its routes are
  // public, as the dashboard asks for the key itself.
  await app.register(async (scope) => {
    markRoutes(scope, 'public');
    if (hasBuild)
      await scope.register(fastifyStatic, {
        root: DIST_DIR,
        wildcard: false,
        index: 'index.html',
        maxAge: '1h',
        immutable: false,
      });
    scope.setNotFoundHandler((req, reply) => {
      const pathname = req.url.split('?')[0]!;
      const wantsHtml = (req.headers.accept ?? '').includes('text/html');
      if (
        hasBuild &&
        req.method === 'GET' &&
        wantsHtml &&
        !pathname.startsWith('/api/') &&
        !pathname.startsWith('/s/')
      ) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      sendRouteNotFound(req, reply);
    });
  });
}
