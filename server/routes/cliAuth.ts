import type { FastifyInstance } from 'fastify';
import { cliAuthOperations } from '../../contract/cliAuth.ts';
import { addRoute } from '../http/route.ts';

/**
 * Browser login for command-line clients (Simplex's `simplex login`): request and poll without a key
 * (the poll token is the poller's secret), the ticket read, approved and denied with one (the
 * dashboard's approval page). Answers holding a secret are never cached.
 */
export async function cliAuthRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, cliAuthOperations.requestCliAuth, (_input, req, reply) => {
    reply.header('cache-control', 'no-store');
    return app.cliAuth.request(req.headers['user-agent'], req.ip);
  });
  addRoute(app, cliAuthOperations.pollCliAuth, ({ query }, _req, reply) => {
    reply.header('cache-control', 'no-store');
    return app.cliAuth.poll(query.ticket_id, query.poll_token);
  });
  addRoute(app, cliAuthOperations.getCliAuthTicket, ({ params }, req) => app.cliAuth.view(params.id, req.apiKeyId));
  addRoute(app, cliAuthOperations.approveCliAuth, ({ params }, req) => app.cliAuth.approve(params.id, req.apiKeyId));
  addRoute(app, cliAuthOperations.denyCliAuth, ({ params }, req) => app.cliAuth.deny(params.id, req.apiKeyId));
}
