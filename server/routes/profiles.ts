import type { FastifyInstance } from 'fastify';
import { profileOperations as ops } from '../../contract/profiles.ts';
import { addRoute } from '../http/route.ts';

/** Profiles: create (empty or from a Playwright storage state), list, read, delete, restore a version. */
export async function profileRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, ops.createProfile, async ({ body }, _req, reply) => {
    reply.status(201);
    return app.profiles.create(body.name, body.storage_state);
  });
  addRoute(app, ops.listProfiles, async () => ({ profiles: await app.profiles.list() }));
  addRoute(app, ops.getProfile, ({ params }) => app.profiles.get(params.name));
  addRoute(app, ops.deleteProfile, async ({ params }) => {
    await app.profiles.delete(params.name);
    return { deleted: true as const };
  });
  addRoute(app, ops.restoreProfile, ({ params, body }) => app.profiles.restore(params.name, body.version));
}
