import type { Step } from './steps.ts';

/** `{{name}}` placeholders, filled from the run's variables in `url` and `value` fields. */
export const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

/**
 * `{{credentials.NAME}}`: a stored credential, typed by the runner. Allowed only in a change step's
 * `value`: anywhere else (a URL above all) the secret would end up in navigation history and logs.
 * Not a variable: it is not declared, and fillPlaceholders leaves it for the runner.
 */
const CREDENTIALS_PREFIX = 'credentials.';
export const CREDENTIAL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;

/** The NAME of a `credentials.NAME` placeholder (the text between the braces), or undefined when it is not one. */
export function credentialOf(placeholder: string): string | undefined {
  return placeholder.startsWith(CREDENTIALS_PREFIX) ? placeholder.slice(CREDENTIALS_PREFIX.length) : undefined;
}

/** Names of the credentials a (validated) flow types, each once, in the order they first appear. */
export function credentialNamesOf(flow: { steps: readonly Step[] }): string[] {
  const names = new Set<string>();
  for (const step of flow.steps) {
    if (step.type !== 'change') continue;
    for (const p of placeholdersOf(step.value)) {
      const name = credentialOf(p);
      if (name !== undefined && CREDENTIAL_NAME.test(name)) names.add(name);
    }
  }
  return [...names];
}
