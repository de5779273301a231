import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** view: watch only; control: watch and drive (VNC input); cdp: the DevTools protocol. */
export type Capability = 'view' | 'control' | 'cdp';

/** A session's capability tokens, as handed to whoever created it (only their hashes are kept). */
export interface SessionTokens {
  view: string;
  control: string;
  cdp: string;
}

export type TokenHashes = Record<Capability, Buffer>;

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/** Three fresh capability tokens (32 random bytes, base64url) and their sha256 hashes. */
export function mintTokens(): { tokens: SessionTokens; hashes: TokenHashes } {
  const tokens: SessionTokens = {
    view: randomBytes(32).toString('base64url'),
    control: randomBytes(32).toString('base64url'),
    cdp: randomBytes(32).toString('base64url'),
  };
  return { tokens, hashes: { view: sha256(tokens.view), control: sha256(tokens.control), cdp: sha256(tokens.cdp) } };
}

/** The hashes as the store keeps them (a session's row, a queued run's row): hex columns. */
export const hashColumns = (h: TokenHashes) => ({
  view_hash: h.view.toString('hex'),
  control_hash: h.control.toString('hex'),
  cdp_hash: h.cdp.toString('hex'),
});

/** Back from those columns. */
export const hashesFromColumns = (row: { view_hash: string; control_hash: string; cdp_hash: string }): TokenHashes => ({
  view: Buffer.from(row.view_hash, 'hex'),
  control: Buffer.from(row.control_hash, 'hex'),
  cdp: Buffer.from(row.cdp_hash, 'hex'),
});

/** Compared against when the session is unknown, so that case costs the same as a wrong token. */
const DECOY: TokenHashes = { view: sha256('decoy-v'), control: sha256('decoy-c'), cdp: sha256('decoy-x') };

/**
 * Does `token` grant `capability`? A control token also grants view. Always hashes and always makes
 * the same comparisons, whether or not the session exists (`hashes` undefined).
 */
export function grants(hashes: TokenHashes | undefined, token: string | undefined, capability: Capability): boolean {
  const h = hashes ?? DECOY;
  const presented = sha256(token ?? '');
  const exact = timingSafeEqual(presented, h[capability]);
  const viaControl = timingSafeEqual(presented, h.control);
  const ok = exact || (capability === 'view' && viaControl);
  return ok && hashes !== undefined && typeof token === 'string' && token.length > 0;
}

/** Token sets issued after create that a session keeps; the oldest is dropped beyond this. */
const MAX_ISSUED_TOKEN_SETS = 16;

/**
 * A live session's tokens: the set it was created with, and those issued later (a workflow's
 * active_session), which die with it like the first.
 */
export class SessionTokenSets {
  private readonly more: TokenHashes[] = [];

  constructor(private readonly first: TokenHashes) {}

  /** Does `token` grant `capability` by any set? Every set is compared, so the time says nothing of which matched. */
  grant(token: string | undefined, capability: Capability): boolean {
    return [this.first, ...this.more].map((hashes) => grants(hashes, token, capability)).includes(true);
  }

  /** A fresh set. Bounded: each set issued adds one that every authorize compares. */
  issue(): SessionTokens {
    if (this.more.length >= MAX_ISSUED_TOKEN_SETS) this.more.shift();
    const { tokens, hashes } = mintTokens();
    this.more.push(hashes);
    return tokens;
  }
}
