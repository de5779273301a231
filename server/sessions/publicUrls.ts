import type { SessionTokens } from './types.ts';
import { signToken, type TokenScope } from '../secrets/signedTokens.ts';

/** How long a signed URL works: a day, the longest a session can live. */
export const SIGNED_URL_SECONDS = 86_400;

const query = (token: string) => `?token=${encodeURIComponent(token)}`;

/**
 * The URLs a session's holder is handed: capability URLs from its tokens, and signed URLs for what
 * outlives it (logs, screenshot, recording, files). `base` is PUBLIC_URL, else the address the
 * server listens on (asked at call time: it is known only once listening); never the Host header.
 */
export class PublicUrls {
  constructor(private readonly opts: { base: () => string; signingKey: Buffer }) {}

  /** The capability URLs of a live session, from its tokens: watch, drive (white-label page), CDP. */
  session(sessionId: string, tokens: Partial<SessionTokens>) {
    const base = this.opts.base();
    const wsBase = base.replace(/^http/, 'ws');
    return {
      livestream_url: tokens.view ? `${base}/s/${sessionId}/live${query(tokens.view)}` : undefined,
      connect_url: tokens.cdp ? `${wsBase}/s/${sessionId}/cdp${query(tokens.cdp)}` : undefined,
      vnc_url: tokens.control ? `${base}/s/${sessionId}/vnc${query(tokens.control)}` : undefined,
    };
  }

  /** vnc_url alone, from the control token. */
  vnc(sessionId: string, controlToken: string): string {
    return this.session(sessionId, { control: controlToken }).vnc_url!;
  }

  /** logs_url: the session's live events (SSE); the token opens this session's events only, for a day. */
  logs(sessionId: string): string {
    return this.signed('events', sessionId, 'stream');
  }

  /** message_url: talk to the session's agent; the token opens this session's agent only, for a day. */
  message(sessionId: string): string {
    return this.signed('message', sessionId, 'message');
  }

  /** screenshot_url: the final page of the session's run. */
  screenshot(sessionId: string): string {
    return this.signed('screenshot', sessionId, 'screenshot');
  }

  /** recording_url: the session's screen recording, for a <video> element (which cannot send X-API-Key). */
  recording(sessionId: string): string {
    return this.signed('recording', sessionId, 'recording');
  }

  /** download_url of a file the session kept: the token opens this session's files only, for a day. */
  file(sessionId: string, filename: string): string {
    return this.signed('files', sessionId, `files/${encodeURIComponent(filename)}`);
  }

  /** The session's kept files as Simplex's file_metadata: each with its signed download_url. */
  fileMetadata<F extends { filename: string }>(sessionId: string, files: F[]): (F & { download_url: string })[] {
    return files.map((f) => ({ ...f, download_url: this.file(sessionId, f.filename) }));
  }

  private signed(scope: TokenScope, sessionId: string, path: string): string {
    return `${this.opts.base()}/api/session/${sessionId}/${path}${query(signToken(this.opts.signingKey, scope, sessionId, SIGNED_URL_SECONDS))}`;
  }
}
