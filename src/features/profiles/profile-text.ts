import type { Profile } from '../../../contract/profiles.ts';

/** The current version and how many are kept, in words: "3 (2 kept)", or that nothing is saved yet. */
export const versionText = (p: Pick<Profile, 'version' | 'versions'>): string =>
  p.version === null ? 'None yet' : `${p.version} (${p.versions.length} kept)`;

export const profileHref = (name: string) => `/profiles/${encodeURIComponent(name)}`;
