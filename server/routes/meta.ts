import type { FastifyInstance } from 'fastify';
import { metaOperations } from '../../contract/meta.ts';
import { buildOpenApiDocument } from '../../contract/openapi.ts';
import { addRoute } from '../http/route.ts';

export async function metaRoutes(app: FastifyInstance): Promise<void> {
  let doc: Record<string, unknown> | undefined;
  addRoute(app, metaOperations.healthz, () => ({ status: 'ok' as const, version: '1.0.0' }));
  addRoute(app, metaOperations.openapi, () => (doc ??= buildOpenApiDocument(`${app.publicUrl()}/api`)));
}
