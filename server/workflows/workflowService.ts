import type { z } from 'zod';
import { aiOutputNames } from '../../contract/steps.ts';
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
import type { WorkflowRunFacts } from '../domain/runFacts.ts';
import {
  DuplicateNameError,
  workflowColumns,
  type WorkflowFields,
  type WorkflowRow,
  type WorkflowsRepo,
} from '../store/workflows.ts';
import { toWorkflow, variablesOf } from './records.ts';
import { inputFromCreate, inputFromUpdate } from './simplexWorkflow.ts';

type ParsedInput = z.output<typeof WorkflowInput>;
type SearchHit = z.infer<typeof WorkflowSearchHit>;

/**
 * undefined metadata / structured_output: left as stored on update (NULL on create). `flow`: the
 * stored JSON text when it is not the parsed one's (the dashboard's, keys in the order written).
 */
function fieldsOf(input: ParsedInput, flow = workflowColumns.flow.write(input.flow)): WorkflowFields {
  return {
    name: input.name,
    flow,
    variables: workflowColumns.variables.write(input.variables),
    metadata: input.metadata,
    structured_output:
      input.structured_output === undefined
        ? undefined
        : input.structured_output === null
          ? null
          : workflowColumns.structuredOutput.write(input.structured_output),
    profile:
      input.profile === undefined
        ? undefined
        : input.profile === null
          ? null
          : workflowColumns.profile.write(input.profile),
  };
}

/** The name is UNIQUE: a second workflow of that name is a conflict on the name field. */
async function renamed<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof DuplicateNameError)
      throw new Conflict(`A workflow named "${name}" already exists; pick another name`, [
        { path: 'name', message: 'already taken' },
      ]);
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
  list(request: { limit: number; cursor?: string }): Promise<Page<Workflow>> {
    return pageOf(request, (limit, before) => this.repo.page(limit, before), toWorkflow);
  }

  async get(id: string): Promise<Workflow> {
    return toWorkflow(found(await this.repo.get(id)));
  }

  /** `flowText`: the flow as the request wrote it, stored instead of the parsed copy. */
  async create(input: ParsedInput, flowText?: string): Promise<Workflow> {
    return toWorkflow(await renamed(input.name, () => this.repo.create(fieldsOf(input, flowText))));
  }

  async update(id: string, input: ParsedInput, flowText?: string): Promise<Workflow> {
    return toWorkflow(found(await renamed(input.name, () => this.repo.update(id, fieldsOf(input, flowText)))));
  }

  async delete(id: string): Promise<void> {
    if (!(await this.repo.delete(id))) throw new NotFound('Workflow');
  }

  /** Newest first, at most SEARCH_LIMIT: by part of the name (any case) and/or the whole metadata. */
  async search(filter: { name?: string; metadata?: string }): Promise<SearchHit[]> {
    return (await this.repo.search(filter, SEARCH_LIMIT)).map((row) => ({
      workflow_id: row.id,
      workflow_name: row.name,
      variables: variablesOf(row.variables),
      metadata: row.metadata,
    }));
  }

  /** Set (null: clear) the metadata. */
  async setMetadata(id: string, metadata: string | null): Promise<Workflow> {
    return toWorkflow(found(await this.repo.setMetadata(id, metadata)));
  }

  /** The Python client's create: a start url and actions. */
  createFromSimplex(body: SimplexWorkflowCreate): Promise<Workflow> {
    return this.create(inputFromCreate(body));
  }

  /** The Python client's update, over the stored workflow (fields left out are kept). */
  async updateFromSimplex(id: string, body: SimplexWorkflowUpdate): Promise<Workflow> {
    return this.update(id, inputFromUpdate(await this.get(id), body));
  }

  /**
   * What a run's status and final webhook carry of its workflow: the metadata string and the
   * structured_output declaration that types the outputs, and the outputs of its AI extract steps
   * (JSON text, typed without a declaration); nulls (no AI outputs) when it has none or no longer exists.
   */
  async runFactsOf(id: string): Promise<WorkflowRunFacts> {
    const row = await this.repo.get(id);
    return {
      metadata: row?.metadata ?? null,
      structuredOutput: row?.structured_output ? workflowColumns.structuredOutput.read(row.structured_output) : null,
      aiOutputs: row ? [...aiOutputNames(workflowColumns.flow.read(row.flow))] : [],
    };
  }

  /** The workflow of that name, or a new empty one (create_workflow_session's workflow_name); `created` says which. */
  async ensureByName(name: string): Promise<{ id: string; created: boolean }> {
    const { row, created } = await this.repo.ensureByName(name);
    return { id: row.id, created };
  }

  /** Undo ensureByName's creation when what it was made for failed (unless since edited or used). */
  async deleteIfUnused(id: string): Promise<void> {
    await this.repo.deleteIfUnused(id);
  }
}
