import { open, seal } from '../secrets/aead.ts';

/** Plaintext bytes per stored chunk: a profile is never one huge row, in the store or in memory. */
export const CHUNK_BYTES = 1024 * 1024;

/** A stored profile that does not open: altered, truncated, or sealed under another key. */
export class ProfileUnreadableError extends Error {}

/**
 * Each chunk is sealed on its own (AES-256-GCM) with its blob, its position and whether it is the
 * last as associated data: a chunk moved, dropped, repeated or taken from another blob does not
 * open, and a blob cut after any chunk lacks its last one. Every chunk is checked before any of its
 * bytes are used.
 */
const aadOf = (blobId: string, seq: number, last: boolean) =>
  Buffer.from(`profile-chunk|${blobId}|${seq}|${last ? 1 : 0}`);

/** `source` cut into CHUNK_BYTES pieces and sealed, in order; the last one says it is. */
export async function* sealChunks(key: Buffer, blobId: string, source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let seq = 0;
  let held: Buffer | undefined; // one full chunk held back, so that the last can be marked
  for await (const piece of source) {
    pending.push(piece);
    pendingLength += piece.length;
    while (pendingLength >= CHUNK_BYTES) {
      const all = Buffer.concat(pending);
      if (held) yield seal(key, aadOf(blobId, seq++, false), held);
      held = all.subarray(0, CHUNK_BYTES);
      pending = [all.subarray(CHUNK_BYTES)];
      pendingLength = all.length - CHUNK_BYTES;
    }
  }
  const rest = Buffer.concat(pending);
  if (held && rest.length === 0) {
    yield seal(key, aadOf(blobId, seq, true), held);
    return;
  }
  if (held) yield seal(key, aadOf(blobId, seq++, false), held);
  yield seal(key, aadOf(blobId, seq, true), rest);
}

/** The plaintext of sealed chunks read in order; ProfileUnreadableError on the first that does not open, or when the last is missing. */
export async function* openChunks(
  key: Buffer,
  blobId: string,
  chunks: AsyncIterable<{ seq: number; data: Buffer }>,
): AsyncGenerator<Buffer> {
  let expected = 0;
  let ended = false;
  for await (const { seq, data } of chunks) {
    if (ended || seq !== expected) throw new ProfileUnreadableError('a chunk is missing or out of place');
    let plain: Buffer;
    try {
      plain = open(key, aadOf(blobId, seq, false), data);
    } catch {
      try {
        plain = open(key, aadOf(blobId, seq, true), data);
        ended = true;
      } catch {
        throw new ProfileUnreadableError(`chunk ${seq} does not decrypt`);
      }
    }
    expected++;
    yield plain;
  }
  if (!ended) throw new ProfileUnreadableError('it is truncated (its last chunk is missing)');
}
