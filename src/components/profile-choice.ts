import type { ProfileUse } from '../../contract/profileUse.ts';

/** A form's profile inputs: the chosen profile's name ('' for none) and whether to save back to it. */
export interface ProfileChoiceValues {
  profile: string;
  persist_profile: boolean;
}

export const profileChoiceDefaults: ProfileChoiceValues = { profile: '', persist_profile: false };

/**
 * The profile a session starts from, as the session requests take it; none chosen (or a form whose
 * defaults leave the fields out): left out.
 */
export const profileUse = (v: Partial<ProfileChoiceValues>): ProfileUse | undefined =>
  v.profile ? { name: v.profile, persist: v.persist_profile === true } : undefined;
