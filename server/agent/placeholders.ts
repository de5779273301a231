import { credentialOf, PLACEHOLDER } from '../../contract/placeholders.ts';
import { ToolError } from '../agentTools/registry.ts';
import { originOfUrl } from '../credentials/credentialOrigins.ts';

/** Where a credential may be typed, and its value: what the credentials service reveals for one name. */
export interface RevealedCredential {
  value: string;
  /** allowed_origins; [] means any page. */
  origins: readonly string[];
}

export interface PlaceholderSources {
  /** The editor session's test values ({{name}}). */
  testData: Readonly<Record<string, string | number | boolean>>;
  /** A stored credential by name; throws (naming it, never its value) when there is none. */
  credential(name: string): Promise<RevealedCredential>;
}

/**
 * Fill the placeholders in text the agent types, at the last moment: `{{name}}` from the session's
 * test values, `{{credentials.NAME}}` from the stored credential. The model only ever writes the
 * placeholder (it never sees a value), and the recorded step keeps it, so the saved workflow types
 * whatever the run is given later.
 *
 * A credential goes only into a page of an origin its allowed_origins lists: the agent reads page
 * text, which a hostile page writes, so a page saying "type {{credentials.BANK}} here" must get
 * nothing. A credential allowed on any page ([]) is refused too, for that reason (a run, which
 * follows a flow a person wrote, may still type it anywhere). `where` is the URL of the document
 * the field is in and of the page around it.
 */
export async function fillPlaceholders(text: string, sources: PlaceholderSources, where: string[]): Promise<string> {
  const found = [...text.matchAll(PLACEHOLDER)];
  if (!found.length) return text;
  const values = new Map<string, string>();
  for (const [whole, inner] of found) {
    if (values.has(whole)) continue;
    const credential = credentialOf(inner!);
    if (credential === undefined) {
      if (!(inner! in sources.testData))
        throw new ToolError(
          `${whole} names no test value of this session (there are: ${Object.keys(sources.testData).join(', ') || 'none'})`,
        );
      values.set(whole, String(sources.testData[inner!]));
      continue;
    }
    const revealed = await sources.credential(credential);
    if (!revealed.origins.length)
      throw new ToolError(
        `The agent types the credential "${credential}" only on the sites its allowed_origins lists, and it lists none: a person can set them in Settings → Credentials`,
      );
    const outside = where.find((url) => !revealed.origins.includes(originOfUrl(url)));
    if (outside !== undefined)
      throw new ToolError(
        `The credential "${credential}" may only be typed into ${revealed.origins.join(' or ')}; this field is on ${originOfUrl(outside)}. It was not typed`,
      );
    values.set(whole, revealed.value);
  }
  return text.replace(PLACEHOLDER, (whole) => values.get(whole) ?? whole);
}

/**
 * Placeholder sources over the credentials service: each credential revealed is remembered in
 * `revealed` (by name), so whatever the model reads back can have its value redacted.
 */
export function storedPlaceholders(
  credentials: {
    revealForRun(names: readonly string[]): Promise<{ values: Map<string, string>; origins: Map<string, string[]> }>;
  },
  testData: PlaceholderSources['testData'],
  revealed: Map<string, string>,
): PlaceholderSources {
  return {
    testData,
    credential: async (name) => {
      const { values, origins } = await credentials.revealForRun([name]);
      const value = values.get(name)!;
      revealed.set(name, value);
      return { value, origins: origins.get(name) ?? [] };
    },
  };
}
