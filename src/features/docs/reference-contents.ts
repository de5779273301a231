import type { OpenApiDocument } from '../../api/meta/get-openapi.ts';

/** One call as the contents list it: where Scalar's reference shows it, and what it does. */
export interface ContentsOperation {
  method: string;
  path: string;
  summary: string;
  /** Scalar's id for the operation's section (`tag/workflows/POST/run_workflow`), as the page's hash. */
  anchor: string;
}

export interface ContentsTag {
  tag: string;
  operations: ContentsOperation[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Scalar's slug of a tag in its ids (lower case, words joined by "-"). */
const tagSlug = (tag: string) => tag.trim().toLowerCase().replace(/\s+/g, '-');

/**
 * The document's calls grouped by their first tag, in the order the paths list them (Scalar's
 * order), read straight from the JSON: a table of contents painted while Scalar's reference loads.
 */
export function operationsByTag(spec: OpenApiDocument): ContentsTag[] {
  const groups = new Map<string, ContentsOperation[]>();
  for (const [path, item] of Object.entries(spec.paths)) {
    const operations = record(item);
    if (!operations) continue;
    for (const method of METHODS) {
      const operation = record(operations[method]);
      if (!operation) continue;
      const tags = Array.isArray(operation.tags) ? operation.tags : [];
      const tag = typeof tags[0] === 'string' ? tags[0] : 'default';
      const summary = typeof operation.summary === 'string' ? operation.summary : '';
      const upper = method.toUpperCase();
      const list = groups.get(tag) ?? [];
      list.push({ method: upper, path, summary, anchor: `tag/${tagSlug(tag)}/${upper}${path}` });
      groups.set(tag, list);
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }));
}
