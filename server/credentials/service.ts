import { CredentialName, originOfSpec } from '../../contract/credentials.ts';
import type { CredentialCipher } from '../secrets/credentialCipher.ts';
import type { CredentialMeta, CredentialsRepo } from '../store/credentials.ts';

/** A credential a run needs was deleted after the run was accepted. */
export class CredentialMissingError extends Error {
  constructor(readonly credential: string) {
    super(`The credential ${credential} is no longer stored: store it again (Settings or store_credential)`);
  }
}

/**
 * Named secrets for flows. Values go in through store() and come out only through reveal(), for
 * the workflow runner, which types them at the last moment and redacts them from what it reports.
 * Everything else (the list, the API answers, the logs) sees names and dates only.
 */
export class CredentialsService {
  constructor(
    private readonly repo: CredentialsRepo,
    private readonly cipher: CredentialCipher,
  ) {}

  /**
   * Store, or replace the value of the credential of that name (its id and created_at stay).
   * `allowedOrigins` (normalised by the contract): the pages it may be typed into, [] any; left
   * undefined, a new credential may go anywhere and a replaced one keeps its origins.
   */
  async store(
    name: string,
    value: string,
    allowedOrigins?: readonly string[],
  ): Promise<CredentialMeta & { replaced: boolean }> {
    // The route has checked all three against the contract; this guards other callers.
    if (!CredentialName.safeParse(name).success) throw new Error('not a credential name');
    if (allowedOrigins?.some((o) => originOfSpec(o) !== o)) throw new Error('not a list of origins');
    const { row, replaced } = await this.repo.put(name, this.cipher.seal(name, value), allowedOrigins);
    return { ...row, replaced };
  }

  /** Names and dates, by name. */
  list(): Promise<CredentialMeta[]> {
    return this.repo.list();
  }

  /** True when a credential of that name was deleted. */
  delete(name: string): Promise<boolean> {
    return this.repo.delete(name);
  }

  /** The names of `names` with no stored credential, each once, in the order given. */
  async missing(names: readonly string[]): Promise<string[]> {
    const unique = [...new Set(names)];
    const stored = await Promise.all(unique.map((name) => this.repo.has(name)));
    return unique.filter((_, i) => !stored[i]);
  }

  /**
   * The values of `names`, decrypted, by name: for the workflow runner only. Throws
   * CredentialMissingError or CredentialUnreadableError (both name the credential, neither carries
   * a byte of the value) rather than hand back a partial map.
   */
  async reveal(names: readonly string[]): Promise<Map<string, string>> {
    return (await this.revealForRun(names)).values;
  }

  /** reveal()'s values and, read from the same rows, where each may be typed (allowed_origins; []: any page). */
  async revealForRun(
    names: readonly string[],
  ): Promise<{ values: Map<string, string>; origins: Map<string, string[]> }> {
    const values = new Map<string, string>();
    const origins = new Map<string, string[]>();
    for (const name of names) {
      if (values.has(name)) continue;
      const sealed = await this.repo.sealedWithOrigins(name);
      if (!sealed) throw new CredentialMissingError(name);
      values.set(name, this.cipher.open(name, sealed.secret));
      origins.set(name, sealed.allowed_origins);
    }
    return { values, origins };
  }

  /** Names of stored credentials that do not decrypt with the current key (checked at start). */
  async unreadable(): Promise<string[]> {
    const bad: string[] = [];
    for (const { name, secret } of await this.repo.sealedAll()) {
      try {
        this.cipher.open(name, secret);
      } catch {
        bad.push(name);
      }
    }
    return bad;
  }
}
