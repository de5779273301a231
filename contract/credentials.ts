import { z } from 'zod';
import { codePointLength, parseJson, wellFormed } from './common.ts';
import { FORM_OR_JSON, defineOperations } from './operation.ts';
import { CREDENTIAL_NAME } from './placeholders.ts';

/**
 * Secrets a flow types without anyone reading them back: `{{credentials.NAME}}` in a change step's
 * value. Values are encrypted at rest and never leave the server again (Simplex's store_credential,
 * list_credentials and delete_credential, which its TypeScript client calls).
 */

export const CREDENTIAL_VALUE_MAX = 4096;

const required = (field: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? `${field} is required` : `${field} must be a string`;

/**
 * Names of JavaScript's own object properties (`__proto__`, `constructor`, `toString`, ...): a name
 * that code might one day use as a key of a plain object must not reach into its prototype.
 */
const RESERVED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

export const CredentialName = z
  .string({ error: required('name') })
  .regex(
    CREDENTIAL_NAME,
    'name must start with a letter or _, hold only letters, digits, _ and - (no spaces, dots or slashes), and be at most 100 characters: a flow types it as {{credentials.NAME}}',
  )
  .refine((name) => !RESERVED_NAMES.has(name), {
    message: 'name is reserved (a JavaScript object property such as __proto__ or constructor): choose another',
    abort: true,
  })
  .describe("How flows refer to it: {{credentials.NAME}} in a change step's value (case-sensitive)");

export const CredentialValue = z
  .string({ error: required('value') })
  .min(1, 'value must not be empty')
  .refine((s) => codePointLength(s) <= CREDENTIAL_VALUE_MAX, `value must be at most ${CREDENTIAL_VALUE_MAX} characters`)
  .check(wellFormed('value'))
  .describe(
    `The secret, 1 to ${CREDENTIAL_VALUE_MAX} characters; stored encrypted (AES-256-GCM) and never returned by any operation`,
  );

/** At most this many origins per credential: a login lives on one or two. */
export const ALLOWED_ORIGINS_MAX = 20;

// No path, query, fragment, backslash, space or control character (the URL parser would drop or mend some).
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\\s\p{Cc}]+\/?$/iu;

/**
 * The origin `text` names, as the browser spells it (`https://login.example.com`, `http://127.0.0.1:8080`:
 * scheme and host lower-cased, an IDN host in punycode, a default port dropped), or undefined when
 * it is not one: an http(s) scheme and a host, an optional port, nothing else (no path but a final
 * `/`, no query, fragment, user or wildcard).
 */
export function originOfSpec(text: string): string | undefined {
  const trimmed = text.trim();
  if (!ORIGIN_SHAPE.test(trimmed) || !URL.canParse(trimmed)) return undefined;
  const url = new URL(trimmed);
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.hostname.includes('*')
  )
    return undefined;
  return url.origin;
}

/** A list as sent: a JSON array, or one string of origins separated by commas, spaces or new lines (a form field; Simplex's clients send a list as a JSON string). */
export function splitOrigins(input: string | readonly string[]): string[] {
  if (typeof input !== 'string') return [...input];
  const text = input.trim();
  if (text.startsWith('[')) {
    const parsed = parseJson(text);
    if (parsed.ok && Array.isArray(parsed.value) && parsed.value.every((v) => typeof v === 'string'))
      return parsed.value as string[];
  }
  return text.split(/[\s,]+/).filter(Boolean);
}

const shown = (text: string) => JSON.stringify(text.length > 100 ? `${text.slice(0, 99)}…` : text);

export const AllowedOrigin = z.string().transform((text, ctx) => {
  const origin = originOfSpec(text);
  if (origin !== undefined) return origin;
  ctx.issues.push({
    code: 'custom',
    input: text,
    message: `${shown(text)} is not an origin: give the scheme and host (and a port if not the default) only, like https://login.example.com, with no path, query or wildcard`,
  });
  return z.NEVER;
});

export const AllowedOrigins = z
  .union([z.array(z.string()), z.string()], {
    error:
      'allowed_origins must be a list of origins (in a form, one field of origins separated by commas or new lines)',
  })
  .transform((input, ctx) => {
    const list = splitOrigins(input);
    if (list.length <= ALLOWED_ORIGINS_MAX) return list;
    ctx.issues.push({
      code: 'custom',
      input,
      message: `allowed_origins holds at most ${ALLOWED_ORIGINS_MAX} origins (${list.length} given)`,
    });
    return z.NEVER;
  })
  .pipe(z.array(AllowedOrigin))
  .transform((origins) => [...new Set(origins)])
  .describe(
    `Origins (scheme://host[:port], up to ${ALLOWED_ORIGINS_MAX}) of the pages the runner may type this credential into; ` +
      'a form sends them in one field, separated by commas or new lines. Empty: any page. Left out: a new credential may go to any page, ' +
      'a replaced one keeps the origins it had',
  );

export const StoreCredentialRequest = z
  .object({ name: CredentialName, value: CredentialValue, allowed_origins: AllowedOrigins.optional() })
  .strict();
export type StoreCredentialRequest = z.infer<typeof StoreCredentialRequest>;
/** What a client sends (allowed_origins may be one string of them): the dashboard's form builds this. */
export type StoreCredentialInput = z.input<typeof StoreCredentialRequest>;

export const StoreCredentialResponse = z.object({
  succeeded: z.literal(true),
  name: z.string(),
  credential_id: z.uuid(),
  replaced: z
    .boolean()
    .describe('True when a credential of this name existed: its value was replaced, its id and created_at kept'),
});
export type StoreCredentialResponse = z.infer<typeof StoreCredentialResponse>;

/** What a list shows of a credential: never its value. */
export const CredentialInfo = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime().describe('Moves when the value is replaced'),
  allowed_origins: z.array(z.string()).describe('The origins of the pages the runner types it into; empty: any page'),
});
export type CredentialInfo = z.infer<typeof CredentialInfo>;

export const ListCredentialsResponse = z.object({
  succeeded: z.literal(true),
  credentials: z.array(CredentialInfo).describe('By name'),
});
export type ListCredentialsResponse = z.infer<typeof ListCredentialsResponse>;

export const DeleteCredentialRequest = z.object({ name: CredentialName }).strict();
export type DeleteCredentialRequest = z.infer<typeof DeleteCredentialRequest>;

export const DeleteCredentialResponse = z.object({ succeeded: z.literal(true) });
export type DeleteCredentialResponse = z.infer<typeof DeleteCredentialResponse>;

export const credentialOperations = defineOperations({
  storeCredential: {
    operationId: 'storeCredential',
    method: 'post',
    path: '/store_credential',
    summary:
      'Store a secret under a name (encrypted at rest), and the origins it may be typed into; storing an existing name replaces its value',
    tags: ['credentials'],
    body: { contentTypes: FORM_OR_JSON, schema: StoreCredentialRequest },
    responses: { 200: { description: 'Stored', schema: StoreCredentialResponse } },
    errors: [400, 415, 422],
  },
  listCredentials: {
    operationId: 'listCredentials',
    method: 'get',
    path: '/list_credentials',
    summary: 'Names and dates of the stored credentials, never their values',
    tags: ['credentials'],
    responses: { 200: { description: 'The credentials', schema: ListCredentialsResponse } },
  },
  deleteCredential: {
    operationId: 'deleteCredential',
    method: 'post',
    path: '/delete_credential',
    summary: 'Delete a credential by name; workflows that type it can no longer run',
    tags: ['credentials'],
    body: { contentTypes: FORM_OR_JSON, schema: DeleteCredentialRequest },
    responses: { 200: { description: 'Deleted', schema: DeleteCredentialResponse } },
    errors: [404, 415, 422],
  },
});
