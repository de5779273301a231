import { credentialOf, PLACEHOLDER } from '../../contract/placeholders.ts';

/** A run's variables, as resolveVariables checked them. */
export type VariableValues = Record<string, string | number | boolean>;

/** What a step's `{{…}}` are filled from. */
export interface FillSources {
  /** The run's variables; a declared one left unset fills as ''. */
  variables?: VariableValues;
  /** The names pause steps store their answers in: one not answered yet stays as `{{name}}`. */
  answerNames?: ReadonlySet<string>;
  /** The pause answers so far, by name. */
  answers?: ReadonlyMap<string, string>;
  /** Credential values by name; without them `{{credentials.NAME}}` stays as it is. */
  credentials?: ReadonlyMap<string, string>;
}

/**
 * Fill the placeholders of a stored template in one pass: each `{{…}}` of the template is
 * replaced by its value, and what a value holds is never read again. Filling in passes (the
 * variables, then the answers, then the credentials) let text that came from outside the flow
 * become a placeholder: two pause answers `{{credentials.NAME` and `}}` filling `{{a}}{{b}}` were
 * expanded again into the credential. A template comes only from the stored flow.
 */
export function fillTemplate(template: string, sources: FillSources): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const credential = credentialOf(name);
    if (credential !== undefined) return sources.credentials?.get(credential) ?? whole;
    const answer = sources.answers?.get(name);
    if (answer !== undefined) return answer;
    if (sources.answerNames?.has(name)) return whole;
    const value = sources.variables?.[name];
    return value === undefined ? '' : String(value);
  });
}

/** The step with its `url` and `value` filled by fillTemplate (the only fields that hold placeholders). */
export function fillStep<S extends object>(step: S, sources: FillSources): S {
  const out: Record<string, unknown> = { ...(step as Record<string, unknown>) };
  for (const field of ['url', 'value'] as const)
    if (typeof out[field] === 'string') out[field] = fillTemplate(out[field], sources);
  return out as S;
}
