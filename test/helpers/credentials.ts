import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { MIN_REDACTED_RUN } from '../../server/credentials/redact.ts';
import { postJson, type TestServer } from './server.ts';

/**
 * The letters a test credential's value is made of: capital consonants. A hex value shares
 * 4-character runs with the ids and times a status or log holds (which are not page text, so not
 * redacted) once in a while; no run of these is in an id or a time.
 */
export const CREDENTIAL_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ';

/** A random credential value of `length` CREDENTIAL_LETTERS. */
export const credentialValue = (length = 20): string =>
  [...randomBytes(length)].map((byte) => CREDENTIAL_LETTERS[byte % CREDENTIAL_LETTERS.length]).join('');

/** Store a credential with a fresh name (`pw_…`) and a random value, kept to `allowedOrigins`; [name, value]. */
export async function storeCredential(server: TestServer, allowedOrigins: string[]): Promise<[string, string]> {
  const name = `pw_${randomBytes(4).toString('hex')}`;
  const value = credentialValue();
  const res = await postJson(server, '/api/store_credential', { name, value, allowed_origins: allowedOrigins });
  expect(res.status, await res.clone().text()).toBe(200);
  return [name, value];
}

/**
 * Base64 of binary data: a run's log holds its screenshots as JPEG base64 (100 KB, some hundred
 * runs of 4+ capital consonants), where one of a value's 4-character pieces turned up by chance
 * in about one check of 70. Image bytes are not page text; a value's base64 is the redactor's
 * own test (test/redact.test.ts).
 */
const BINARY_BASE64 = /[A-Za-z0-9+/_-]{200,}={0,2}/g;

/** The pieces of `value` MIN_REDACTED_RUN characters long that `text` holds (outside base64 of binary data). */
export const runsOf = (value: string, text: string): string[] => {
  const readable = text.replace(BINARY_BASE64, '[binary]');
  return [...Array(value.length - MIN_REDACTED_RUN + 1).keys()]
    .map((at) => value.slice(at, at + MIN_REDACTED_RUN))
    .filter((piece) => readable.includes(piece));
};
