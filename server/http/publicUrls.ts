import type { FastifyInstance } from 'fastify';
import type { SessionTokens } from '../sessions/types.ts';
import { signToken, type TokenScope } from '../secrets/signedTokens.ts';

/** How long a signed URL works: a day, the longest a session can live. */
export const SIGNED_URL_SECONDS = 86_400;

const query = (token: string) => `?token=${encodeURIComponent(token)}`;

/** The capability URLs of a live session, from its tokens: watch, drive (white-label page), CDP. */
export function sessionUrls(app: FastifyInstance, sessionId: string, tokens: Partial<SessionTokens>) {
  const base = app.publicUrl();
  const wsBase = base.replace(/^http/, 'ws');
  return {
    livestream_url: tokens.view ? `${base}/s/${sessionId}/live${query(tokens.view)}` : undefined,
    connect_url: tokens.cdp ? `${wsBase}/s/${sessionId}/cdp${query(tokens.cdp)}` : undefined,
    vnc_url: tokens.control ? `${base}/s/${sessionId}/vnc${query(tokens.control)}` : undefined,
  };
}

const signed = (app: FastifyInstance, scope: TokenScope, sessionId: string, path: string) =>
  `${app.publicUrl()}/api/session/${sessionId}/${path}${query(signToken(app.urlSigningKey, scope, sessionId, SIGNED_URL_SECONDS))}`;

/** logs_url: the session's live events (SSE); the token opens this session's events only, for a day. */
export const logsUrl = (app: FastifyInstance, sessionId: string) => signed(app, 'events', sessionId, 'stream');

/** screenshot_url: the final page of the session's run. */
export const screenshotUrl = (app: FastifyInstance, sessionId: string) => signed(app, 'screenshot', sessionId, 'screenshot');

/** recording_url: the session's screen recording, for a <video> element (which cannot send X-API-Key). */
export const recordingUrl = (app: FastifyInstance, sessionId: string) => signed(app, 'recording', sessionId, 'recording');

/** download_url of a file the session kept: the token opens this session's files only, for a day. */
export const fileUrl = (app: FastifyInstance, sessionId: string, filename: string) => signed(app, 'files', sessionId, `files/${encodeURIComponent(filename)}`);

/** The session's kept files as Simplex's file_metadata: each with its signed download_url. */
export const fileMetadataOf = (app: FastifyInstance, sessionId: string) =>
  app.artifacts.files(sessionId).map((f) => ({ ...f, download_url: fileUrl(app, sessionId, f.filename) }));
