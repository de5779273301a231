import { EmbedOptions } from '../../../contract/viewer.ts';

export type EmbedOptionsResult = { ok: true; options: EmbedOptions } | { ok: false; problems: string[] };

/** The embed page's options from its own query string (the token stays in the URL for the socket). */
export function readEmbedOptions(search: string): EmbedOptionsResult {
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EmbedOptions.shape)) {
    const v = params.get(key);
    if (v !== null) raw[key] = v;
  }
  const parsed = EmbedOptions.safeParse(raw);
  if (parsed.success) return { ok: true, options: parsed.data };
  return { ok: false, problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
}
