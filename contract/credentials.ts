import { z } from 'zod';
import { wellFormed } from './common.ts';
import { FORM_OR_JSON, defineOperations } from './operation.ts';
import { CREDENTIAL_NAME } from './workflows.ts';

/**
 * Secrets a flow types without anyone reading them back: `{{credentials.NAME}}` in a change
 * step's value. Values are encrypted at rest and never leave the server again (Simplex's
 * store_credential / list_credentials / delete_credential, which its TypeScript client calls).
 */
export const CredentialName = z
  .string()
  .regex(CREDENTIAL_NAME, 'name must be letters, digits, _ and -, starting with a letter or _, at most 100 characters');

export const StoreCredentialRequest = z
  .object({
    name: CredentialName,
    value: z.string().min(1, 'value must not be empty').max(4096, 'value must be at most 4096 characters').check(wellFormed('value')),
  })
  .strict();
export type StoreCredentialRequest = z.infer<typeof StoreCredentialRequest>;

export const DeleteCredentialRequest = z.object({ name: CredentialName }).strict();

export const CredentialInfo = z.object({ id: z.uuid(), name: z.string(), created_at: z.iso.datetime(), updated_at: z.iso.datetime() });
export type CredentialInfo = z.infer<typeof CredentialInfo>;

export const StoreCredentialResponse = z.object({ succeeded: z.literal(true), name: z.string(), credential_id: z.uuid() });
export const ListCredentialsResponse = z.object({ succeeded: z.literal(true), credentials: z.array(CredentialInfo) });
export const DeleteCredentialResponse = z.object({ succeeded: z.literal(true) });

export const credentialOperations = defineOperations({
  storeCredential: {
    operationId: 'storeCredential',
    method: 'post',
    path: '/store_credential',
    summary: 'Store a credential (encrypted); storing a name again replaces its value',
    tags: ['credentials'],
    body: { contentTypes: ['application/json', 'application/x-www-form-urlencoded'], schema: StoreCredentialRequest },
    responses: { 200: { description: 'Stored', schema: StoreCredentialResponse } },
    errors: [400, 415, 422],
  },
  listCredentials: {
    operationId: 'listCredentials',
    method: 'get',
    path: '/list_credentials',
    summary: 'Credential names and dates (never values)',
    tags: ['credentials'],
    responses: { 200: { description: 'The credentials', schema: ListCredentialsResponse } },
  },
  deleteCredential: {
    operationId: 'deleteCredential',
    method: 'post',
    path: '/delete_credential',
    summary: 'Delete a credential by name',
    tags: ['credentials'],
    body: { contentTypes: FORM_OR_JSON, schema: DeleteCredentialRequest },
    responses: { 200: { description: 'Deleted', schema: DeleteCredentialResponse } },
    errors: [404, 415, 422],
  },
});
