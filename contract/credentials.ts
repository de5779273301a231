import { z } from 'zod';
import { codePointLength, wellFormed } from './common.ts';
import { FORM_OR_JSON, defineOperations } from './operation.ts';
import { CREDENTIAL_NAME } from './workflows.ts';

/**
 * Secrets a flow types without anyone reading them back: `{{credentials.NAME}}` in a change step's
 * value. Values are encrypted at rest and never leave the server again (Simplex's store_credential,
 * list_credentials and delete_credential, which its TypeScript client calls).
 */

export const CREDENTIAL_VALUE_MAX = 4096;

const required = (field: string) => (iss: { input: unknown }) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`);

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
  .refine((name) => !RESERVED_NAMES.has(name), { message: 'name is reserved (a JavaScript object property such as __proto__ or constructor): choose another', abort: true })
  .describe('How flows refer to it: {{credentials.NAME}} in a change step\'s value (case-sensitive)');

export const CredentialValue = z
  .string({ error: required('value') })
  .min(1, 'value must not be empty')
  .refine((s) => codePointLength(s) <= CREDENTIAL_VALUE_MAX, `value must be at most ${CREDENTIAL_VALUE_MAX} characters`)
  .check(wellFormed('value'))
  .describe(`The secret, 1 to ${CREDENTIAL_VALUE_MAX} characters; stored encrypted (AES-256-GCM) and never returned by any operation`);

export const StoreCredentialRequest = z.object({ name: CredentialName, value: CredentialValue }).strict();
export type StoreCredentialRequest = z.infer<typeof StoreCredentialRequest>;

export const StoreCredentialResponse = z.object({
  succeeded: z.literal(true),
  name: z.string(),
  credential_id: z.uuid(),
  replaced: z.boolean().describe('True when a credential of this name existed: its value was replaced, its id and created_at kept'),
});
export type StoreCredentialResponse = z.infer<typeof StoreCredentialResponse>;

/** What a list shows of a credential: never its value. */
export const CredentialInfo = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime().describe('Moves when the value is replaced'),
});
export type CredentialInfo = z.infer<typeof CredentialInfo>;

export const ListCredentialsResponse = z.object({ succeeded: z.literal(true), credentials: z.array(CredentialInfo).describe('By name') });
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
    summary: 'Store a secret under a name (encrypted at rest); storing an existing name replaces its value',
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
