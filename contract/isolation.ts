import { z } from 'zod';

/**
 * What a session costs (Browserdesk's own addition): `browser`, a browser of its own (its own
 * display, processes and user); `context`, an off-the-record browser context in a browser that
 * sessions of the same API key share, started in milliseconds (README, "Context sessions").
 */
export const SessionIsolation = z.enum(['browser', 'context']);
export type SessionIsolation = z.infer<typeof SessionIsolation>;
