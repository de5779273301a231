import { z } from 'zod';

/** The Settings form (local to the dashboard, not an API shape). */
export const SettingsForm = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: 'Enter an http(s) address, e.g. http://localhost:8080/api' }),
  apiKey: z.string().trim().min(1, 'Enter the API key (sent as X-API-Key)'),
});
export type SettingsForm = z.infer<typeof SettingsForm>;
