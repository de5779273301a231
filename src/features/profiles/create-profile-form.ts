import { CreateProfileRequest } from '../../../contract/profiles.ts';
import { contractResolver } from '../../lib/contract-resolver.ts';

/** The new-profile form: a name, and optionally a Playwright storage state (pasted or read from a file). */
export interface CreateProfileValues {
  name: string;
  storage_state: string;
}

export const createProfileDefaults: CreateProfileValues = { name: '', storage_state: '' };

// The name goes as typed (its rules allow no spaces, so a stray one is shown, not trimmed away); the
// storage state as text, parsed and checked by the contract here and again on the server.
export const createProfileResolver = contractResolver(CreateProfileRequest, (v: CreateProfileValues) => ({
  name: v.name,
  storage_state: v.storage_state.trim() === '' ? undefined : v.storage_state,
}));

export const CREATE_PROFILE_FIELDS = ['name', 'storage_state'] as const;
