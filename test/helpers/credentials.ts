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

/** The pieces of `value` MIN_REDACTED_RUN characters long that `text` holds. */
export const runsOf = (value: string, text: string): string[] =>
  [...Array(value.length - MIN_REDACTED_RUN + 1).keys()]
    .map((at) => value.slice(at, at + MIN_REDACTED_RUN))
    .filter((piece) => text.includes(piece));
