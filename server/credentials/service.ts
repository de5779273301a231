import type { CredentialInfo } from '../../contract/credentials.ts';
import { openCredential, sealCredential } from '../secrets/credentialCipher.ts';
import type { CredentialsRepo } from '../store/credentials.ts';

/** Credentials: stored sealed, listed without values, revealed only to the run that types them. */
export class CredentialService {
  constructor(
    private readonly repo: CredentialsRepo,
    private readonly key: Buffer,
  ) {}

  store(name: string, value: string): CredentialInfo {
    const { secret: _sealed, ...info } = this.repo.put(name, sealCredential(this.key, name, value));
    return info;
  }

  list(): CredentialInfo[] {
    return this.repo.list();
  }

  /** False when there was no such credential. */
  delete(name: string): boolean {
    return this.repo.delete(name);
  }

  /** The names that are not stored. */
  missing(names: readonly string[]): string[] {
    return names.filter((name) => !this.repo.get(name));
  }

  /** The values, by name, for the runner alone; throws (naming the credential, never a byte of it) when one is gone or unreadable. */
  reveal(names: readonly string[]): Map<string, string> {
    const values = new Map<string, string>();
    for (const name of names) {
      const row = this.repo.get(name);
      if (!row) throw new Error(`credential ${name} is no longer stored`);
      values.set(name, openCredential(this.key, name, row.secret));
    }
    return values;
  }
}
