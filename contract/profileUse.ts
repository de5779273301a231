import { z } from 'zod';

/** How a session names the profile it starts from (contract/profiles.ts has the profiles themselves). */
export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;
export const ProfileName = z
  .string({ error: (iss) => (iss.input === undefined ? 'name is required' : 'name must be a string') })
  .regex(
    PROFILE_NAME,
    'a profile name is 1 to 64 characters of letters, digits, "-", "_" and "." (no spaces or slashes)',
  )
  .refine((name) => name !== '.' && name !== '..', { message: 'a profile name cannot be "." or ".."' })
  .describe('The profile: 1–64 letters, digits, "-", "_" or "."');

/** What a session is started with: `persist` saves its state back as the next version when it ends. */
export const ProfileUse = z
  .object({
    name: ProfileName,
    persist: z
      .boolean()
      .default(false)
      .describe(
        "Save the session's state back as the profile's next version when it ends (one persisting session per profile at a time)",
      ),
  })
  .strict()
  .describe(
    "Browserdesk's own addition, optional: start logged in from a saved profile (see /api/profiles); persist saves the session's state back when it ends",
  );
export type ProfileUse = z.output<typeof ProfileUse>;
