import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What sealing adds to the plaintext: the IV and the tag. */
export const SEAL_OVERHEAD = IV_BYTES + TAG_BYTES;

/**
 * AES-256-GCM with a fresh random IV: `iv | tag | ciphertext`. `aad` is authenticated, not stored:
 * bytes sealed for one place (a credential's name, a chunk's blob and position) do not open in another.
 */
export function seal(key: Buffer, aad: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** The plaintext sealed under `key` and `aad`; throws when the key, the aad or any byte differs (nothing is returned unchecked). */
export function open(key: Buffer, aad: Buffer, sealed: Buffer): Buffer {
  if (sealed.length < SEAL_OVERHEAD) throw new Error('sealed bytes are too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(sealed.subarray(IV_BYTES, SEAL_OVERHEAD));
  decipher.setAAD(aad);
  return Buffer.concat([decipher.update(sealed.subarray(SEAL_OVERHEAD)), decipher.final()]);
}
