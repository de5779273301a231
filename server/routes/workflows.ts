import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { SEARCH_LIMIT, workflowOperations, WorkflowInput } from '../../contract/workflows.ts';
import { NotFound } from '../domain/errors.ts';
import { AppError } from '../http/errors.ts';
import { decodeCursor, encodeCursor } from '../http/cursor.ts';
import { addRoute } from '../http/route.ts';
import { DuplicateNameError, type WorkflowFields } from '../store/workflows.ts';
import { storedFlowOf, toWorkflow, variablesOf } from '../workflows/records.ts';
import { inputFromCreate, inputFromUpdate } from '../workflows/simplexWorkflow.ts';
import type { z } from 'zod';

type ParsedInput = z.output<typeof WorkflowInput>;

/**
 * undefined metadata / structured_output: left as stored on update (NULL on create). `flow`: the
 * stored JSON text when it is not the parsed one's (the dashboard's, keys in the order written).
 */
function fieldsOf(input: ParsedInput, flow = JSON.stringify(input.flow)): WorkflowFields {
  return {
    name: input.name,
    flow,
    variables: JSON.stringify(input.variables),
    metadata: input.metadata,
    structured_output:
      input.structured_output === undefined ? undefined : input.structured_output === null ? null : JSON.stringify(input.structured_output),
  };
}

function duplicate(name: string) {
  return new AppError(409, ErrorCode.conflict, `A workflow named "${name}" already exists; pick another name`, [
    { path: 'name', message: 'already taken' },
  ]);
}

/**
 * Workflow CRUD: the operations the spec leaves out, which the dashboard needs (DESIGN.md); and the
 * same workflows as Simplex's clients see them (search, metadata, the Python client's /workflow).
 */
export async function workflowRoutes(app: FastifyInstance): Promise<void> {
  const repo = app.store.workflows;

  addRoute(app, workflowOperations.listWorkflows, ({ query }) => {
    const rows = repo.page(query.limit + 1, query.cursor ? decodeCursor(query.cursor) : undefined);
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return { items: items.map(toWorkflow), next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  });

  addRoute(app, workflowOperations.createWorkflow, ({ body }, req, reply) => {
    try {
      const row = repo.create(fieldsOf(body, storedFlowOf(req.body)));
      return reply.status(201).send(toWorkflow(row));
    } catch (err) {
      if (err instanceof DuplicateNameError) throw duplicate(body.name);
      throw err;
    }
  });

  addRoute(app, workflowOperations.getWorkflow, ({ params }) => {
    const row = repo.get(params.id);
    if (!row) throw new NotFound('Workflow');
    return toWorkflow(row);
  });

  addRoute(app, workflowOperations.updateWorkflow, ({ params, body }, req) => {
    try {
      const row = repo.update(params.id, fieldsOf(body, storedFlowOf(req.body)));
      if (!row) throw new NotFound('Workflow');
      return toWorkflow(row);
    } catch (err) {
      if (err instanceof DuplicateNameError) throw duplicate(body.name);
      throw err;
    }
  });

  addRoute(app, workflowOperations.deleteWorkflow, ({ params }, _req, reply) => {
    if (!repo.delete(params.id)) throw new NotFound('Workflow');
    return reply.status(204).send();
  });

  addRoute(app, workflowOperations.searchWorkflows, ({ query }) => {
    const rows = repo.search({ name: query.workflow_name, metadata: query.metadata }, SEARCH_LIMIT);
    const workflows = rows.map((row) => ({ workflow_id: row.id, workflow_name: row.name, variables: variablesOf(row.variables), metadata: row.metadata }));
    return { succeeded: true as const, workflows, count: workflows.length };
  });

  addRoute(app, workflowOperations.updateWorkflowMetadata, ({ body }) => {
    const row = repo.setMetadata(body.workflow_id, body.metadata);
    if (!row) throw new NotFound('Workflow');
    return { succeeded: true as const, message: 'Workflow metadata updated', workflow_id: row.id, metadata: row.metadata };
  });

  addRoute(app, workflowOperations.simplexGetWorkflow, ({ params }) => {
    const row = repo.get(params.id);
    if (!row) throw new NotFound('Workflow');
    return { succeeded: true as const, workflow: toWorkflow(row) };
  });

  addRoute(app, workflowOperations.simplexCreateWorkflow, ({ body }) => {
    const input = inputFromCreate(body);
    try {
      return { succeeded: true as const, message: 'Workflow created', workflow: toWorkflow(repo.create(fieldsOf(input))) };
    } catch (err) {
      if (err instanceof DuplicateNameError) throw duplicate(input.name);
      throw err;
    }
  });

  addRoute(app, workflowOperations.simplexUpdateWorkflow, ({ params, body }) => {
    const current = repo.get(params.id);
    if (!current) throw new NotFound('Workflow');
    const input = inputFromUpdate(toWorkflow(current), body);
    try {
      const row = repo.update(params.id, fieldsOf(input));
      if (!row) throw new NotFound('Workflow');
      return { succeeded: true as const, message: 'Workflow updated', workflow: toWorkflow(row) };
    } catch (err) {
      if (err instanceof DuplicateNameError) throw duplicate(input.name);
      throw err;
    }
  });
}
