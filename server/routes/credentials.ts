import type { FastifyInstance } from 'fastify';
import {
  credentialOperations as ops,
  type ListCredentialsResponse,
  type StoreCredentialResponse,
} from '../../contract/credentials.ts';
import { NotFound } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

/** Simplex's credential calls: store (or replace), list names, dates and allowed origins, delete. No call returns a value. */
export async function credentialRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, ops.storeCredential, async ({ body }): Promise<StoreCredentialResponse> => {
    const stored = await app.credentials.store(body.name, body.value, body.allowed_origins);
    return { succeeded: true, name: stored.name, credential_id: stored.id, replaced: stored.replaced };
  });

  addRoute(app, ops.listCredentials, async (): Promise<ListCredentialsResponse> => ({
    succeeded: true,
    credentials: (await app.credentials.list()).map(({ id, name, created_at, updated_at, allowed_origins }) => ({
      id,
      name,
      created_at,
      updated_at,
      allowed_origins,
    })),
  }));

  addRoute(app, ops.deleteCredential, async ({ body }) => {
    if (!(await app.credentials.delete(body.name))) throw new NotFound(`Credential ${body.name}`);
    return { succeeded: true as const };
  });
}
