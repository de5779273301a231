import type { z } from 'zod';
import {
  SEARCH_LIMIT,
  type SimplexWorkflowCreate,
  type SimplexWorkflowUpdate,
  type Workflow,
  type WorkflowInput,
  type WorkflowSearchHit,
} from '../../contract/workflows.ts';
import { Conflict, NotFound } from '../domain/errors.ts';
import { pageOf, type Page } from '../domain/pages.ts';
import { DuplicateNameError, type WorkflowFields, type WorkflowRow, type WorkflowsRepo } from '../store/workflows.ts';
import { toWorkflow, variablesOf } from './records.ts';
import { inputFromCreate, inputFromUpdate } from './simplexWorkflow.ts';

type ParsedInput = z.output<typeof WorkflowInput>;
type SearchHit = z.infer<typeof WorkflowSearchHit>;

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

/** The name is UNIQUE: a second workflow of that name is a conflict on the name field. */
function renamed<T>(name: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof DuplicateNameError) throw new Conflict(`A workflow named "${name}" already exists; pick another name`, [{ path: 'name', message: 'already taken' }]);
    throw err;
  }
}

const found = (row: WorkflowRow | undefined): WorkflowRow => {
  if (!row) throw new NotFound('Workflow');
  return row;
};

/**
 * Saved workflows as both APIs see them: the dashboard's CRUD and Simplex's clients (search,
 * metadata, the Python client's url-and-actions form); and the empty workflow a session's
 * workflow_name makes. Throws NotFound for an unknown id and Conflict for a name already taken.
 */
export class WorkflowService {
  constructor(private readonly repo: WorkflowsRepo) {}

  /** Listed workflows (not the untouched ones sessions made), newest first. */
  list(request: { limit: number; cursor?: string }): Page<Workflow> {
    return pageOf(request, (limit, before) => this.repo.page(limit, before), toWorkflow);
  }

  get(id: string): Workflow {
    return toWorkflow(found(this.repo.get(id)));
  }

  /** `flowText`: the flow as the request wrote it, stored instead of the parsed copy. */
  create(input: ParsedInput, flowText?: string): Workflow {
    return toWorkflow(renamed(input.name, () => this.repo.create(fieldsOf(input, flowText))));
  }

  update(id: string, input: ParsedInput, flowText?: string): Workflow {
    return toWorkflow(found(renamed(input.name, () => this.repo.update(id, fieldsOf(input, flowText)))));
  }

  delete(id: string): void {
    if (!this.repo.delete(id)) throw new NotFound('Workflow');
  }

  /** Newest first, at most SEARCH_LIMIT: by part of the name (any case) and/or the whole metadata. */
  search(filter: { name?: string; metadata?: string }): SearchHit[] {
    return this.repo
      .search(filter, SEARCH_LIMIT)
      .map((row) => ({ workflow_id: row.id, workflow_name: row.name, variables: variablesOf(row.variables), metadata: row.metadata }));
  }

  /** Set (null: clear) the metadata. */
  setMetadata(id: string, metadata: string | null): Workflow {
    return toWorkflow(found(this.repo.setMetadata(id, metadata)));
  }

  /** The Python client's create: a start url and actions. */
  createFromSimplex(body: SimplexWorkflowCreate): Workflow {
    return this.create(inputFromCreate(body));
  }

  /** The Python client's update, over the stored workflow (fields left out are kept). */
  updateFromSimplex(id: string, body: SimplexWorkflowUpdate): Workflow {
    return this.update(id, inputFromUpdate(this.get(id), body));
  }

  /** The workflow's metadata; null when it has none or no longer exists. */
  metadataOf(id: string): string | null {
    return this.repo.get(id)?.metadata ?? null;
  }

  /** The workflow's name; null once it is deleted (its sessions and runs stay). */
  nameOf(id: string): string | null {
    return this.repo.get(id)?.name ?? null;
  }

  /** The workflow of that name, or a new empty one (create_workflow_session's workflow_name); `created` says which. */
  ensureByName(name: string): { id: string; created: boolean } {
    const { row, created } = this.repo.ensureByName(name);
    return { id: row.id, created };
  }

  /** Undo ensureByName's creation when what it was made for failed (unless since edited or used). */
  deleteIfUnused(id: string): void {
    this.repo.deleteIfUnused(id);
  }
}
