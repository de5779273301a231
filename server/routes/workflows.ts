import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { workflowOperations, WorkflowInput } from '../../contract/workflows.ts';
import { AppError, notFound } from '../http/errors.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { addRoute } from '../http/route.ts';
import { DuplicateNameError, type WorkflowFields } from '../store/workflows.ts';
import { toWorkflow } from '../workflows/records.ts';
import type { z } from 'zod';

type ParsedInput = z.output<typeof WorkflowInput>;

function fieldsOf(input: ParsedInput): WorkflowFields {
  return { name: input.name, flow: JSON.stringify(input.flow), variables: JSON.stringify(input.variables) };
}

function duplicate(name: string) {
  return new AppError(409, ErrorCode.conflict, `A workflow named "${name}" already exists; pick another name`, [
    { path: 'name', message: 'already taken' },
  ]);
}

/** Workflow CRUD: the operations the spec leaves out, which the dashboard needs (DESIGN.md). */
export async function workflowRoutes(app: FastifyInstance): Promise<void> {
  const repo = app.store.workflows;

  addRoute(app, workflowOperations.listWorkflows, ({ query }) => {
    const rows = repo.page(query.limit + 1, query.cursor ? decodeCursor(query.cursor) : undefined);
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return { items: items.map(toWorkflow), next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  });

  addRoute(app, workflowOperations.createWorkflow, ({ body }, _req, reply) => {
    try {
      const row = repo.create(fieldsOf(body));
      return reply.status(201).send(toWorkflow(row));
    } catch (err) {
      if (err instanceof DuplicateNameError) throw duplicate(body.name);
      throw err;
    }
  });

  addRoute(app, workflowOperations.getWorkflow, ({ params }) => {
    const row = repo.get(params.id);
    if (!row) throw notFound('Workflow');
    return toWorkflow(row);
  });

  addRoute(app, workflowOperations.updateWorkflow, ({ params, body }) => {
    try {
      const row = repo.update(params.id, fieldsOf(body));
      if (!row) throw notFound('Workflow');
      return toWorkflow(row);
    } catch (err) {
      if (err instanceof DuplicateNameError) throw duplicate(body.name);
      throw err;
    }
  });

  addRoute(app, workflowOperations.deleteWorkflow, ({ params }, _req, reply) => {
    if (!repo.delete(params.id)) throw notFound('Workflow');
    return reply.status(204).send();
  });
}
