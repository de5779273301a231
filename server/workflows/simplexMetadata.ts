import { MAX_JSON_DEPTH, nestsDeeperThan, parseJson } from '../../contract/common.ts';

/*
 * The metadata fields of a session's status and of the run.completed webhook as Simplex's clients
 * type them (`dict` in the Python client, `Record<string, any>` in simplex-ts). `metadata` itself
 * is always the caller's string, byte for byte; these are its parsed views.
 */

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  const json = parseJson(text);
  return json.ok && !nestsDeeperThan(json.value, MAX_JSON_DEPTH) ? json : { ok: false };
}

/** session_metadata: the caller's metadata parsed when it holds JSON, else the string as given; null when none was given. */
export function sessionMetadataOf(metadata: string | null | undefined): unknown {
  if (metadata === null || metadata === undefined) return null;
  const json = parsed(metadata);
  return json.ok ? json.value : metadata;
}

/**
 * workflow_metadata: the workflow's metadata as an object when it holds a JSON object (what the
 * clients' types expect), else the string as stored (free text, a list, a number); null when the
 * workflow has none.
 */
export function workflowMetadataOf(metadata: string | null | undefined): Record<string, unknown> | string | null {
  if (metadata === null || metadata === undefined) return null;
  const json = parsed(metadata);
  return json.ok && json.value !== null && typeof json.value === 'object' && !Array.isArray(json.value)
    ? (json.value as Record<string, unknown>)
    : metadata;
}
