import { z } from 'zod';
import { defineOperations } from './operation.ts';

/**
 * An API key as listed: never the key or its hash. `prefix` is the start of a key this server made
 * (`bd_` and 7 more characters, as `npm run keys -- list` shows); null for one given to it as is
 * (BROWSERDESK_API_KEY), whose start could be most of it.
 */
export const ApiKeyInfo = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().nullable(),
  created_at: z.iso.datetime(),
  revoked_at: z.iso.datetime().nullable(),
  current: z.boolean().describe('This is the key the request was made with'),
});
export type ApiKeyInfo = z.infer<typeof ApiKeyInfo>;

export const ApiKeyList = z.object({ items: z.array(ApiKeyInfo) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const CreateApiKeyRequest = z.strictObject({
  name: z
    .string({ error: 'Give the key a name' })
    .trim()
    .min(1, 'Give the key a name')
    .max(100, 'A key name is at most 100 characters')
    .regex(/^[^\p{Cc}]*$/u, 'A key name cannot hold control characters'),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

/** The one answer that holds the key itself: it is not stored, so it cannot be shown again. */
export const CreatedApiKey = ApiKeyInfo.extend({ key: z.string().describe('The new key; shown this once') });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyParams = z.object({ id: z.uuid('The key id must be a UUID') });

export const apiKeyOperations = defineOperations({
  listApiKeys: {
    operationId: 'listApiKeys',
    method: 'get',
    path: '/keys',
    summary: 'The API keys, active and revoked (never a key or its hash)',
    tags: ['keys'],
    responses: { 200: { description: 'The keys, oldest first', schema: ApiKeyList } },
  },
  createApiKey: {
    operationId: 'createApiKey',
    method: 'post',
    path: '/keys',
    summary: 'Make an API key; the answer holds it once. An active key with the same name is a 409',
    tags: ['keys'],
    body: { contentTypes: ['application/json'], schema: CreateApiKeyRequest },
    responses: { 201: { description: 'The new key, shown this once', schema: CreatedApiKey } },
    errors: [409, 415, 422],
  },
  revokeApiKey: {
    operationId: 'revokeApiKey',
    method: 'delete',
    path: '/keys/{id}',
    summary: 'Revoke an API key: it stops working at once. The last active key cannot be revoked',
    tags: ['keys'],
    params: ApiKeyParams,
    responses: { 200: { description: 'The key as revoked', schema: ApiKeyInfo } },
    errors: [404, 409, 422],
  },
});
