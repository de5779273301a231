import type { FastifyInstance } from 'fastify';
import { apiKeyOperations } from '../../contract/apiKeys.ts';
import { addRoute } from '../http/route.ts';

export async function apiKeyRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, apiKeyOperations.listApiKeys, async (_input, req, reply) => {
    reply.header('cache-control', 'no-store');
    return { items: await app.apiKeyAdmin.list(req.apiKeyId) };
  });
  addRoute(app, apiKeyOperations.createApiKey, async ({ body }, req, reply) => {
    // The key is in this answer only: no cache may keep it.
    reply.header('cache-control', 'no-store').status(201);
    return app.apiKeyAdmin.create(body.name, req.apiKeyId);
  });
  addRoute(app, apiKeyOperations.revokeApiKey, ({ params }, req) => app.apiKeyAdmin.revoke(params.id, req.apiKeyId));
}
