import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiKeyAdmin } from '../../secrets/apiKeys.ts';

declare module 'fastify' {
  interface FastifyInstance {
    apiKeyAdmin: ApiKeyAdmin;
  }
}

/** app.apiKeyAdmin: list, create and revoke API keys over the API, on the store's api_keys table. */
export const apiKeyAdminService = fp(
  async (app: FastifyInstance) => {
    app.decorate('apiKeyAdmin', new ApiKeyAdmin(app.store.apiKeys));
  },
  { name: 'apiKeyAdmin' },
);
