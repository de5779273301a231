import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { subKey } from './secretKey.ts';

const IV_BYTES = 12;
const TAG_BYTES = 16;

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
    seal(name, value) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(name, 'utf8'));
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(name, sealed) {
      if (sealed.length < IV_BYTES + TAG_BYTES) throw new CredentialUnreadableError(name);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        decipher.setAAD(Buffer.from(name, 'utf8'));
        // Nothing is returned unless final() has checked the tag.
        return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new CredentialUnreadableError(name);
      }
    },
  };
}
