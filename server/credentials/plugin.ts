import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { subKey } from '../secrets/secretKey.ts';
import { credentialsRepo } from '../store/credentials.ts';
import { CredentialService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    credentials: CredentialService;
  }
}

/** app.credentials, sealed under a key derived from the server's secret key. */
export const credentialsService = fp(
  async (app: FastifyInstance) => {
    app.decorate('credentials', new CredentialService(credentialsRepo(app.db), subKey(app.secretKey, 'credentials')));
  },
  { name: 'credentials' },
);
