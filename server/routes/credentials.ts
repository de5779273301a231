import type { FastifyInstance } from 'fastify';
import { credentialOperations as ops } from '../../contract/credentials.ts';
import { notFound } from '../http/errors.ts';
import { addRoute } from '../http/route.ts';

/** store_credential, list_credentials, delete_credential (Simplex's TypeScript client; the dashboard's Settings). */
export async function credentialRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, ops.storeCredential, ({ body }) => {
    const stored = app.credentials.store(body.name, body.value);
    return { succeeded: true, name: stored.name, credential_id: stored.id };
  });
  addRoute(app, ops.listCredentials, () => ({ succeeded: true, credentials: app.credentials.list() }));
  addRoute(app, ops.deleteCredential, ({ body }) => {
    if (!app.credentials.delete(body.name)) throw notFound('Credential');
    return { succeeded: true };
  });
}
