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

const EMPTY_FLOW = (title: string) => JSON.stringify({ title, steps: [] });

/** The workflows table. */
export function workflowsRepo(db: Db) {
  const byId = db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE id = ?');
  const byName = db.prepare<[string], WorkflowRow>('SELECT * FROM workflows WHERE name = ?');
  const insert = db.prepare(
    'INSERT INTO workflows (id, name, flow, variables, created_at, updated_at) VALUES (@id, @name, @flow, @variables, @created_at, @updated_at)',
  );
  return {
    get: (id: string) => byId.get(id),
    getByName: (name: string) => byName.get(name),
    /** The workflow of that name, or a new empty one (create_workflow_session's workflow_name). */
    findOrCreateByName: db.transaction((name: string): WorkflowRow => {
      const found = byName.get(name);
      if (found) return found;
      const now = nowIso();
      const row: WorkflowRow = { id: randomUUID(), name, flow: EMPTY_FLOW(name), variables: '[]', created_at: now, updated_at: now };
      insert.run(row);
      return row;
    }),
  };
}
export type WorkflowsRepo = ReturnType<typeof workflowsRepo>;
