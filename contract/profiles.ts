import { z } from 'zod';
import { parseJson } from './common.ts';
import { defineOperations } from './operation.ts';
import { StorageState } from './sessions.ts';
import { ProfileName } from './profileUse.ts';

/**
 * Profiles: a named, encrypted, versioned browser state (a login) that sessions start from and may
 * save back to. Browserdesk's own addition; Simplex's clients never call these.
 */

/** Versions kept per profile: a save or restore beyond this drops the oldest. */
export const PROFILE_VERSIONS_KEPT = 3;

/** A Playwright storage state, as an object or as a string holding one (the way session_data carries it). */
export const ImportedStorageState = z
  .union([z.string(), z.record(z.string(), z.unknown())], {
    error: 'storage_state must be a Playwright storage state: an object {cookies, origins}, or a string holding one',
  })
  .transform((input, ctx) => {
    let value: unknown = input;
    if (typeof input === 'string') {
      const json = parseJson(input);
      if (!json.ok) {
        ctx.addIssue({ code: 'custom', message: 'storage_state must hold valid JSON (a Playwright storage state)' });
        return z.NEVER;
      }
      value = json.value;
    }
    const r = StorageState.safeParse(value);
    if (r.success) return r.data;
    const first = r.error.issues[0]!;
    const at = first.path.length ? ` at ${first.path.join('.')}` : '';
    ctx.addIssue({
      code: 'custom',
      message: `storage_state must be a Playwright storage state {cookies:[…], origins:[{origin, localStorage:[{name, value}]}]}: ${first.message}${at}`,
    });
    return z.NEVER;
  })
  .describe("A Playwright storage state (what context.storageState() writes) to import as the profile's first version");

export const CreateProfileRequest = z
  .object({ name: ProfileName, storage_state: ImportedStorageState.optional() })
  .strict();
export type CreateProfileRequest = z.input<typeof CreateProfileRequest>;

export const ProfileVersionSource = z
  .enum(['import', 'session', 'restore'])
  .describe(
    'import: a storage state given to create; session: saved by a persisting session; restore: a copy of an older version',
  );

export const ProfileVersion = z.object({
  version: z.number().int().min(1),
  size: z.number().int().min(0).describe('Bytes stored (compressed and encrypted)'),
  source: ProfileVersionSource,
  session_id: z.uuid().nullable().describe('The session that saved it (source session)'),
  restored_from: z.number().int().nullable().describe('The version it copies (source restore)'),
  created_at: z.iso.datetime(),
});
export type ProfileVersion = z.infer<typeof ProfileVersion>;

export const ProfileUser = z.object({
  session_id: z.uuid(),
  persist: z.boolean().describe('This session saves its state back when it ends'),
  since: z.iso.datetime(),
});

export const Profile = z.object({
  name: z.string(),
  size: z.number().int().min(0).describe('Bytes stored of the current version (0 while it has none)'),
  version: z.number().int().nullable().describe('The current version: the newest; null until one is saved or imported'),
  versions: z.array(ProfileVersion).describe(`Newest first; the last ${PROFILE_VERSIONS_KEPT} are kept`),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable().describe('When a session last started from it'),
  in_use_by: z.array(ProfileUser).describe('Live sessions started from it, now'),
});
export type Profile = z.infer<typeof Profile>;

export const ListProfilesResponse = z.object({ profiles: z.array(Profile).describe('By name') });
export type ListProfilesResponse = z.infer<typeof ListProfilesResponse>;

export const ProfileParams = z.object({ name: ProfileName });

export const RestoreProfileRequest = z
  .object({
    version: z
      .number({ error: 'version must be a version number of this profile' })
      .int({ message: 'version must be a whole number' })
      .min(1, { message: 'version must be at least 1' }),
  })
  .strict();
export type RestoreProfileRequest = z.input<typeof RestoreProfileRequest>;

export const DeleteProfileResponse = z.object({ deleted: z.literal(true) });

export const profileOperations = defineOperations({
  createProfile: {
    operationId: 'createProfile',
    method: 'post',
    path: '/profiles',
    summary:
      'Create a profile, empty or from a Playwright storage state; sessions started with it begin from its newest version',
    tags: ['profiles'],
    body: { contentTypes: ['application/json'], schema: CreateProfileRequest },
    responses: { 201: { description: 'The profile', schema: Profile } },
    errors: [401, 409, 413, 415, 422],
  },
  listProfiles: {
    operationId: 'listProfiles',
    method: 'get',
    path: '/profiles',
    summary: 'Every profile, with its size, versions, last use and the sessions using it now',
    tags: ['profiles'],
    responses: { 200: { description: 'The profiles', schema: ListProfilesResponse } },
    errors: [401],
  },
  getProfile: {
    operationId: 'getProfile',
    method: 'get',
    path: '/profiles/{name}',
    summary: 'One profile (never its contents)',
    tags: ['profiles'],
    params: ProfileParams,
    responses: { 200: { description: 'The profile', schema: Profile } },
    errors: [401, 404, 422],
  },
  deleteProfile: {
    operationId: 'deleteProfile',
    method: 'delete',
    path: '/profiles/{name}',
    summary: 'Delete a profile and every version of it; refused while a session uses it',
    tags: ['profiles'],
    params: ProfileParams,
    responses: { 200: { description: 'Deleted', schema: DeleteProfileResponse } },
    errors: [401, 404, 409, 422],
  },
  restoreProfile: {
    operationId: 'restoreProfile',
    method: 'post',
    path: '/profiles/{name}/restore',
    summary:
      'Make an older version current again: it is copied as the newest version, so nothing is lost; refused while a session persists to it',
    tags: ['profiles'],
    params: ProfileParams,
    body: { contentTypes: ['application/json'], schema: RestoreProfileRequest },
    responses: { 200: { description: 'The profile with the copy as its current version', schema: Profile } },
    errors: [401, 404, 409, 415, 422],
  },
});
