import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ProfileUse } from '../../contract/profileUse.ts';
import { Flow, TIMEOUT_MAX_MS } from '../../contract/steps.ts';
import { Variable } from '../../contract/variables.ts';
import { jsonColumn } from './jsonColumn.ts';
import { isUniqueViolation, nowIso, type Sql } from './sql.ts';

export interface WorkflowRow {
  id: string;
  name: string;
  flow: string;
  variables: string;
  metadata: string | null;
  /** JSON text, NULL when none. */
  structured_output: string | null;
  /** JSON text of {name, persist}, NULL when none. */
  profile: string | null;
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
  /** JSON text; undefined: NULL on create, the stored value kept on update. */
  profile?: string | null;
}

/**
 * A stored flow as the check sees it, with each timeout over TIMEOUT_MAX_MS taken as that: a flow
 * saved before the cap existed stays readable, runnable and editable as it was written (an edit
 * that keeps such a timeout is refused then, at its field).
 */
function timeoutsWithinCap(value: unknown): unknown {
  const capped = (o: unknown) =>
    o && typeof o === 'object' && typeof (o as { timeout?: unknown }).timeout === 'number'
      ? { ...o, timeout: Math.min((o as { timeout: number }).timeout, TIMEOUT_MAX_MS) }
      : o;
  const flow = capped(value) as { steps?: unknown };
  return Array.isArray(flow?.steps) ? { ...flow, steps: flow.steps.map(capped) } : flow;
}

/**
 * The JSON columns. The flow is checked against Flow but read as it was written, its keys in their
 * order (contract flowAsGiven); structured_output is any JSON (output fields, or what Simplex's
 * clients keep there).
 */
export const workflowColumns = {
  flow: jsonColumn(
    'workflows.flow',
    z.custom<Flow>((value) => Flow.safeParse(timeoutsWithinCap(value)).success, 'not a flow'),
  ),
  variables: jsonColumn('workflows.variables', z.array(Variable)),
  structuredOutput: jsonColumn('workflows.structured_output', z.unknown()),
  profile: jsonColumn('workflows.profile', ProfileUse),
};

export type WorkflowSearchRow = Pick<WorkflowRow, 'id' | 'name' | 'variables' | 'metadata'>;

/**
 * Case folding for name search, done in JS because SQLite's LIKE and lower() fold ASCII only:
 * upper then lower case folds ß/SS, ﬁ/FI and the like, and final sigma is made ordinary sigma.
 * NFC so a composed and a decomposed é match.
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().replace(/ς/g, 'σ');
}

/** Thrown when another workflow already has the name (the column is UNIQUE). */
export class DuplicateNameError extends Error {}

const COLUMNS = [
  'id',
  'name',
  'flow',
  'variables',
  'metadata',
  'structured_output',
  'profile',
  'made_by_session',
  'created_at',
  'updated_at',
] as const;
const INSERT = `INSERT INTO workflows (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const values = (row: WorkflowRow) => COLUMNS.map((c) => row[c]);

/** The workflows table. */
export function workflowsRepo(sql: Sql) {
  const get = (id: string) => sql.get<WorkflowRow>('SELECT * FROM workflows WHERE id = ?', [id]);
  const getByName = (name: string) => sql.get<WorkflowRow>('SELECT * FROM workflows WHERE name = ?', [name]);
  /** The workflow of that name, or a new empty one (create_workflow_session's workflow_name); `created` says which. */
  const ensureByName = async (name: string): Promise<{ row: WorkflowRow; created: boolean }> => {
    const now = nowIso();
    const fresh: WorkflowRow = {
      id: randomUUID(),
      name,
      flow: workflowColumns.flow.write({ title: name, steps: [] }),
      variables: workflowColumns.variables.write([]),
      metadata: null,
      structured_output: null,
      profile: null,
      made_by_session: 1,
      created_at: now,
      updated_at: now,
    };
    // One statement, so two sessions asking for the same new name at once (on any node) get one workflow.
    const created = (await sql.run(`${INSERT} ON CONFLICT (name) DO NOTHING`, values(fresh))) > 0;
    if (created) return { row: fresh, created };
    const found = await getByName(name);
    // Deleted between the two statements (a failed start undoing its own): ask again.
    return found ? { row: found, created: false } : ensureByName(name);
  };
  return {
    get,
    getByName,
    ensureByName,
    findOrCreateByName: async (name: string): Promise<WorkflowRow> => (await ensureByName(name)).row,
    /**
     * Undo ensureByName's creation when what it was created for failed: delete the workflow unless
     * someone has since edited it or another session or run uses it. True when it was deleted.
     */
    deleteIfUnused: async (id: string): Promise<boolean> =>
      (await sql.run(
        `DELETE FROM workflows WHERE id = ? AND created_at = updated_at
           AND NOT EXISTS (SELECT 1 FROM sessions WHERE workflow_id = ? AND state != 'ended')
           AND NOT EXISTS (SELECT 1 FROM runs WHERE workflow_id = ?)`,
        [id, id, id],
      )) > 0,
    async create(fields: WorkflowFields): Promise<WorkflowRow> {
      const now = nowIso();
      const row: WorkflowRow = {
        id: randomUUID(),
        ...fields,
        metadata: fields.metadata ?? null,
        structured_output: fields.structured_output ?? null,
        profile: fields.profile ?? null,
        made_by_session: 0,
        created_at: now,
        updated_at: now,
      };
      try {
        await sql.run(INSERT, values(row));
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateNameError(fields.name);
        throw err;
      }
      return row;
    },
    /** The updated row, or undefined when there is no workflow with that id. */
    async update(id: string, fields: WorkflowFields): Promise<WorkflowRow | undefined> {
      try {
        const changed = await sql.run(
          `UPDATE workflows SET name = ?, flow = ?, variables = ?,
             metadata = CASE WHEN ? = 1 THEN ? ELSE metadata END,
             structured_output = CASE WHEN ? = 1 THEN ? ELSE structured_output END,
             profile = CASE WHEN ? = 1 THEN ? ELSE profile END,
             made_by_session = 0, updated_at = ?
           WHERE id = ?`,
          [
            fields.name,
            fields.flow,
            fields.variables,
            fields.metadata === undefined ? 0 : 1,
            fields.metadata ?? null,
            fields.structured_output === undefined ? 0 : 1,
            fields.structured_output ?? null,
            fields.profile === undefined ? 0 : 1,
            fields.profile ?? null,
            nowIso(),
            id,
          ],
        );
        if (changed === 0) return undefined;
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateNameError(fields.name);
        throw err;
      }
      return get(id);
    },
    /** Set (null: clear) the metadata and move updated_at; the updated row, or undefined when there is no such workflow. */
    async setMetadata(id: string, metadata: string | null): Promise<WorkflowRow | undefined> {
      if (
        (await sql.run('UPDATE workflows SET metadata = ?, made_by_session = 0, updated_at = ? WHERE id = ?', [
          metadata,
          nowIso(),
          id,
        ])) === 0
      )
        return undefined;
      return get(id);
    },
    /**
     * Newest first, at most `limit`: `name` is a part of the name in any case (compared after
     * foldCase, so no character is a wildcard), `metadata` the whole metadata; undefined matches all.
     * The name is matched in JS over the rows (fine up to some thousands of workflows).
     */
    async search(filter: { name?: string; metadata?: string }, limit: number): Promise<WorkflowSearchRow[]> {
      if (limit <= 0) return [];
      const rows =
        filter.metadata === undefined
          ? await sql.all<WorkflowSearchRow>(
              'SELECT id, name, variables, metadata FROM workflows ORDER BY created_at DESC, id DESC',
            )
          : await sql.all<WorkflowSearchRow>(
              'SELECT id, name, variables, metadata FROM workflows WHERE metadata = ? ORDER BY created_at DESC, id DESC',
              [filter.metadata],
            );
      const needle = filter.name === undefined ? undefined : foldCase(filter.name);
      return rows.filter((row) => needle === undefined || foldCase(row.name).includes(needle)).slice(0, limit);
    },
    delete: async (id: string) => (await sql.run('DELETE FROM workflows WHERE id = ?', [id])) > 0,
    /** Listed workflows (not the untouched ones a session made, migration 010), newest first; `after` is the last row of the previous page. */
    page(limit: number, after?: { created_at: string; id: string }): Promise<WorkflowRow[]> {
      return after
        ? sql.all<WorkflowRow>(
            'SELECT * FROM workflows WHERE made_by_session = 0 AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?',
            [after.created_at, after.created_at, after.id, limit],
          )
        : sql.all<WorkflowRow>(
            'SELECT * FROM workflows WHERE made_by_session = 0 ORDER BY created_at DESC, id DESC LIMIT ?',
            [limit],
          );
    },
  };
}
export type WorkflowsRepo = ReturnType<typeof workflowsRepo>;
