import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { credentialCipher } from '../../secrets/credentialCipher.ts';
import { credentialsRepo } from '../../store/credentials.ts';
import { CredentialsService } from '../../credentials/service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    credentials: CredentialsService;
  }
}

/** The credentials service, keyed from app.secretKey; shared with fastify-plugin so the runner can reveal values. */
export const credentialsService = fp(
  async (app: FastifyInstance) => {
    const service = new CredentialsService(credentialsRepo(app.db), credentialCipher(app.secretKey));
    app.decorate('credentials', service);
    // Say at start, not at the first run, when the key no longer opens what was stored under it.
    const unreadable = await service.unreadable();
    if (unreadable.length) {
      app.log.error(
        `${unreadable.length} stored credential(s) do not decrypt with this server's secret key (${unreadable.join(', ')}): ` +
          'the key changed since they were stored. Restore DATA_DIR/secret-key or BROWSERDESK_SECRET_KEY, or store them again',
      );
    }
  },
  { name: 'credentials' },
);
