import { randomUUID } from 'node:crypto';
import { nowIso, type Db } from './db.ts';

export interface WorkflowRow {
  id: string;
  name: string;
  flow: string;
  variables: string;
  metadata: string | null;
  /** JSON text, NULL when none. */
  structured_output: string | null;
  /** 1 while it is the untouched by-product of a session's workflow_name (not listed); 0 once made or saved on purpose. */
  made_by_session: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowFields {
  name: string;
  /** JSON text of the flow and of the variables list. */
  flow: string;
  variables: string;
  /** undefined: NULL on create, the stored value kept on update. */
  metadata?: string | null;
  /** JSON text; undefined: NULL on create, the stored value kept on update. */
  structured_output?: string | null;
}

export type WorkflowSearchRow = Pick<WorkflowRow, 'id' | 'name' | 'variables' | 'metadata'>;

/**
 * Case folding for name search, done in JS because SQLite's LIKE and lower() fold ASCII only:
 * upper then lower case folds ß/SS, ﬁ/FI and the like, and final sigma is made ordinary sigma.
 * NFC so a composed and a decomposed é match.
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().replace(/ς/g, 'σ');
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
    `INSERT INTO workflows (id, name, flow, variables, metadata, structured_output, made_by_session, created_at, updated_at)
     VALUES (@id, @name, @flow, @variables, @metadata, @structured_output, @made_by_session, @created_at, @updated_at)`,
  );
  const update = db.prepare(
    `UPDATE workflows SET name = @name, flow = @flow, variables = @variables,
       metadata = CASE WHEN @set_metadata THEN @metadata ELSE metadata END,
       structured_output = CASE WHEN @set_structured_output THEN @structured_output ELSE structured_output END,
       made_by_session = 0, updated_at = @updated_at
     WHERE id = @id`,
  );
  const setMetadata = db.prepare('UPDATE workflows SET metadata = @metadata, made_by_session = 0, updated_at = @updated_at WHERE id = @id');
  const searchAll = db.prepare<[], WorkflowSearchRow>('SELECT id, name, variables, metadata FROM workflows ORDER BY created_at DESC, id DESC');
  const searchByMetadata = db.prepare<[string], WorkflowSearchRow>(
    'SELECT id, name, variables, metadata FROM workflows WHERE metadata = ? ORDER BY created_at DESC, id DESC',
  );
  // The list leaves out what a session's workflow_name made and nobody has saved since (migration 010).
  const firstPage = db.prepare<[number], WorkflowRow>('SELECT * FROM workflows WHERE made_by_session = 0 ORDER BY created_at DESC, id DESC LIMIT ?');
  const nextPage = db.prepare<[string, string, string, number], WorkflowRow>(
    'SELECT * FROM workflows WHERE made_by_session = 0 AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const ensureByName = db.transaction((name: string): { row: WorkflowRow; created: boolean } => {
    const found = byName.get(name);
    if (found) return { row: found, created: false };
    const now = nowIso();
    const row: WorkflowRow = {
      id: randomUUID(),
      name,
      flow: EMPTY_FLOW(name),
      variables: '[]',
      metadata: null,
      structured_output: null,
      made_by_session: 1,
      created_at: now,
      updated_at: now,
    };
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
      const row: WorkflowRow = {
        id: randomUUID(),
        ...fields,
        metadata: fields.metadata ?? null,
        structured_output: fields.structured_output ?? null,
        made_by_session: 0,
        created_at: now,
        updated_at: now,
      };
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
        const params = {
          id,
          name: fields.name,
          flow: fields.flow,
          variables: fields.variables,
          set_metadata: fields.metadata === undefined ? 0 : 1,
          metadata: fields.metadata ?? null,
          set_structured_output: fields.structured_output === undefined ? 0 : 1,
          structured_output: fields.structured_output ?? null,
          updated_at: nowIso(),
        };
        if (update.run(params).changes === 0) return undefined;
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateNameError(fields.name);
        throw err;
      }
      return byId.get(id);
    },
    /** Set (null: clear) the metadata and move updated_at; the updated row, or undefined when there is no such workflow. */
    setMetadata(id: string, metadata: string | null): WorkflowRow | undefined {
      if (setMetadata.run({ id, metadata, updated_at: nowIso() }).changes === 0) return undefined;
      return byId.get(id);
    },
    /**
     * Newest first, at most `limit`: `name` is a part of the name in any case (compared after
     * foldCase, so no character is a wildcard), `metadata` the whole metadata; undefined matches all.
     * The name is matched in JS over the rows (fine up to some thousands of workflows).
     */
    search(filter: { name?: string; metadata?: string }, limit: number): WorkflowSearchRow[] {
      const needle = filter.name === undefined ? undefined : foldCase(filter.name);
      const out: WorkflowSearchRow[] = [];
      if (limit <= 0) return out;
      for (const row of filter.metadata === undefined ? searchAll.iterate() : searchByMetadata.iterate(filter.metadata)) {
        if (needle !== undefined && !foldCase(row.name).includes(needle)) continue;
        out.push(row);
        if (out.length >= limit) break;
      }
      return out;
    },
    delete: (id: string) => db.prepare('DELETE FROM workflows WHERE id = ?').run(id).changes > 0,
    /** Listed workflows (not the untouched ones a session made), newest first; `after` is the last row of the previous page. */
    page(limit: number, after?: { created_at: string; id: string }): WorkflowRow[] {
      return after ? nextPage.all(after.created_at, after.created_at, after.id, limit) : firstPage.all(limit);
    },
  };
}
export type WorkflowsRepo = ReturnType<typeof workflowsRepo>;
