import { open, seal } from './aead.ts';
import { subKey } from './secretKey.ts';

/** A stored value that does not decrypt. Names the credential, never carries its bytes. */
export class CredentialUnreadableError extends Error {
  constructor(readonly credential: string) {
    super(
      `The credential ${credential} could not be decrypted: the server's secret key changed since it was stored ` +
        '(BROWSERDESK_SECRET_KEY or DATA_DIR/secret-key), or its stored row was altered. Restore the key, or store the credential again',
    );
  }
}

export interface CredentialCipher {
  /** AES-256-GCM under the credentials key, a fresh IV each time, the name as AAD: `iv | tag | ciphertext`. */
  seal(name: string, value: string): Buffer;
  /** The value sealed under this name; CredentialUnreadableError when the key, the name or a byte differs. */
  open(name: string, sealed: Buffer): string;
}

/**
 * Credential values at rest. The key is derived from the master key for this use alone; the name is
 * authenticated with the value, so a row's secret copied onto another name does not decrypt.
 */
export function credentialCipher(master: Buffer): CredentialCipher {
  const key = subKey(master, 'credentials');
  return {
    seal: (name, value) => seal(key, Buffer.from(name, 'utf8'), Buffer.from(value, 'utf8')),
    open(name, sealed) {
      try {
        return open(key, Buffer.from(name, 'utf8'), sealed).toString('utf8');
      } catch {
        throw new CredentialUnreadableError(name);
      }
    },
  };
}
