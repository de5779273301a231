import { z } from 'zod';
import { defineOperations } from './operation.ts';

/** A node as the store names it: its NODE_URL, or `local` on a single node (percent-encode it in a path). */
export const NodeParams = z.object({
  id: z.string().min(1, 'Name a node').max(1000, 'A node id is at most 1000 characters'),
});

/**
 * A node taking no new work before it stops (SIGTERM or POST /api/nodes/{id}/drain): runs under
 * way and live sessions have until `deadline` (DRAIN_TIMEOUT_S) to end; then what is left ends and
 * the node exits.
 */
export const DrainState = z.object({
  node_id: z.string().describe("The draining node's id (its NODE_URL, or local)"),
  since: z.iso.datetime().describe('When the drain began'),
  deadline: z.iso.datetime().describe('When what is still running ends and the node exits, at the latest'),
  runs: z.number().int().describe('Runs under way, starting, or waiting in its own line on that node now'),
  sessions: z.number().int().describe('Sessions starting or live on that node now'),
});
export type DrainState = z.infer<typeof DrainState>;

export const nodeOperations = defineOperations({
  drainNode: {
    operationId: 'drainNode',
    method: 'post',
    path: '/nodes/{id}/drain',
    summary:
      'Take a node out gently: it starts no new session and takes no queued run, lets what runs end within DRAIN_TIMEOUT_S, then exits. Any node passes the call to the one named',
    tags: ['meta'],
    params: NodeParams,
    responses: {
      202: { description: 'The node drains (again: the same drain, its deadline unchanged)', schema: DrainState },
    },
    errors: [404, 422, 503],
  },
});
