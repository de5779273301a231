import { randomUUID } from 'node:crypto';
import { nowIso, type Db } from './db.ts';

export interface WorkflowRow {
  id: string;
  name: string;
  flow: string;
  variables: string;
  created_at: string;
  updated_at: string;
}

export interface WorkflowFields {
  name: string;
  /** JSON text of the flow and of the variables list. */
  flow: string;
  variables: string;
}

const EMPTY_FLOW = (title: string) => JSON.stringify({ title, steps: [] });

/** Thrown when another workflow already has the name (the column is UNIQUE). */
export class DuplicateNameError extends Error {}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The workflows table. */
export function workflowsRepo(db: Db) {
  const byId = db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE id = ?');
  const byName = db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE name = ?');
  const insert = db.prepare(
    'INSERT INTO workflows (id, name, flow, variables, created_at, updated_at) VALUES (@id, @name, @flow, @variables, @created_at, @updated_at)',
  );
  const update = db.prepare('UPDATE workflows SET name = @name, flow = @flow, variables = @variables, updated_at = @updated_at WHERE id = @id');
  const firstPage = db.prepare<[number], WorkflowRow>('SELECT * FROM workflows ORDER BY created_at DESC, id DESC LIMIT ?');
  const nextPage = db.prepare<[string, string, string, number], WorkflowRow>(
    'SELECT * FROM workflows WHERE created_at < ? OR (created_at = ? AND id < ?) ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const ensureByName = db.transaction((name: string): { row: WorkflowRow; created: boolean } => {
    const found = byName.get(name);
    if (found) return { row: found, created: false };
    const now = nowIso();
    const row: WorkflowRow = { id: randomUUID(), name, flow: EMPTY_FLOW(name), variables: '[]', created_at: now, updated_at: now };
    insert.run(row);
    return { row, created: true };
  });
  const deleteUnused = db.prepare(
    `DELETE FROM workflows WHERE id = @id AND created_at = updated_at
       AND NOT EXISTS (SELECT 1 FROM sessions WHERE workflow_id = @id AND state != 'ended')
       AND NOT EXISTS (SELECT 1 FROM runs WHERE workflow_id = @id)`,
  );
  return {
    get: (id: string) => byId.get(id),
    getByName: (name: string) => byName.get(name),
    /** The workflow of that name, or a new empty one (create_workflow_session's workflow_name); `created` says which. */
    ensureByName,
    findOrCreateByName: (name: string): WorkflowRow => ensureByName(name).row,
    /**
     * Undo ensureByName's creation when what it was created for failed: delete the workflow unless
     * someone has since edited it or another session or run uses it. True when it was deleted.
     */
    deleteIfUnused: (id: string): boolean => deleteUnused.run({ id }).changes > 0,
    create(fields: WorkflowFields): WorkflowRow {
      const now = nowIso();
      const row: WorkflowRow = { id: randomUUID(), ...fields, created_at: now, updated_at: now };
      try {
        insert.run(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateNameError(fields.name);
        throw err;
      }
      return row;
    },
    /** The updated row, or undefined when there is no workflow with that id. */
    update(id: string, fields: WorkflowFields): WorkflowRow | undefined {
      try {
        if (update.run({ id, ...fields, updated_at: nowIso() }).changes === 0) return undefined;
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateNameError(fields.name);
        throw err;
      }
      return byId.get(id);
    },
    delete: (id: string) => db.prepare('DELETE FROM workflows WHERE id = ?').run(id).changes > 0,
    /** Newest first; `after` is the last row of the previous page. */
    page(limit: number, after?: { created_at: string; id: string }): WorkflowRow[] {
      return after ? nextPage.all(after.created_at, after.created_at, after.id, limit) : firstPage.all(limit);
    },
  };
}
export type WorkflowsRepo = ReturnType<typeof workflowsRepo>;
