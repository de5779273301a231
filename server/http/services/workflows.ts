import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { WorkflowService } from '../../workflows/workflowService.ts';

declare module 'fastify' {
  interface FastifyInstance {
    workflows: WorkflowService;
  }
}

/** app.workflows: saved workflows, shared with the session and run-control routes (which look workflows up). */
export const workflowsService = fp(
  async (app: FastifyInstance) => {
    app.decorate('workflows', new WorkflowService(app.store.workflows));
  },
  { name: 'workflows' },
);
