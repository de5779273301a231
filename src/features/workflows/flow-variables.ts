import { VARIABLE_NAME } from '../../../contract/variables.ts';
import { credentialOf, placeholdersOf } from '../../../contract/placeholders.ts';
import { parseFlowText } from './flow-text.ts';

/** The fields whose `{{name}}` placeholders a run fills (the contract checks the same two). */
const FILLED_FIELDS = ['url', 'value'] as const;

/**
 * Names the flow's `{{…}}` placeholders use that no variable declares yet, in the order they first
 * appear: the editor offers to add them. Credentials (`{{credentials.NAME}}`) are not variables, and
 * a placeholder that is no valid name is left to the validation message.
 */
export function undeclaredPlaceholders(flowText: string, declared: readonly string[]): string[] {
  const { value } = parseFlowText(flowText);
  const steps = (value as { steps?: unknown } | undefined)?.steps;
  if (!Array.isArray(steps)) return [];
  const known = new Set(declared);
  const found = new Set<string>();
  for (const step of steps) {
    if (step === null || typeof step !== 'object') continue;
    for (const field of FILLED_FIELDS) {
      const text = (step as Record<string, unknown>)[field];
      if (typeof text !== 'string') continue;
      for (const name of placeholdersOf(text)) {
        if (credentialOf(name) === undefined && VARIABLE_NAME.test(name) && !known.has(name)) found.add(name);
      }
    }
  }
  return [...found];
}
