import type { FastifyInstance } from 'fastify';
import { nodeOperations } from '../../contract/nodes.ts';
import { NotFound } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

export async function nodeRoutes(app: FastifyInstance): Promise<void> {
  addRoute(app, nodeOperations.drainNode, async ({ params }, req, reply) => {
    if (params.id !== app.cluster.nodeId) {
      // Only to a node the store knows and hears from, at the address it stored: never a URL from the request.
      const node = await app.cluster.liveNode(params.id);
      if (node !== null && (await app.passToNode(req, reply, node))) return reply;
      throw new NotFound('Node', 'no live node of the cluster has this id (its NODE_URL, or local on a single node)');
    }
    reply.header('cache-control', 'no-store').status(202);
    return app.drain.begin();
  });
}
