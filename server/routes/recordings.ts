import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import { runControlOperations as ops } from '../../contract/runControl.ts';
import { RECORDING_FILE } from '../artifacts/recorder.ts';
import { NotFound } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

/**
 * A session's screen recording: `retrieve_session_replay` with the API key (Simplex's clients) and
 * `session/{id}/recording` with a signed token (the dashboard's <video>, which cannot send a header).
 * Byte ranges, 206, 416 and validators come from @fastify/send (through @fastify/static's
 * sendFile, scoped to this plugin and serving nothing by itself).
 */
export async function recordingRoutes(app: FastifyInstance): Promise<void> {
  const root = path.join(app.config.dataDir, 'artifacts');
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  await app.register(fastifyStatic, { root, serve: false });
  // @fastify/send answers a Range past the end with an error carrying `Content-Range: bytes */SIZE`
  // (RFC 9110 wants it, so a client learns the size); the app's handler would drop the header.
  app.setErrorHandler((err, _req, reply) => {
    if ((err as { statusCode?: number }).statusCode !== 416) throw err;
    const range = (err as { headers?: Record<string, string> }).headers?.['Content-Range'];
    if (range) reply.header('content-range', range);
    return reply.status(416).send({
      error: ErrorCode.rangeNotSatisfiable,
      message: `The Range asked for is not within the recording${range ? ` (${range.replace('bytes */', '')} bytes)` : ''}`,
    });
  });

  const noRecording = async (id: string): Promise<NotFound> => {
    const forRun = await app.sessionRecords.isRunSession(id);
    const why =
      app.recordings.mode === 'off'
        ? 'this server does not record sessions (RECORD_SESSIONS=off)'
        : app.recordings.mode === 'runs' && !forRun
          ? 'this server records only the sessions of workflow runs (RECORD_SESSIONS=runs)'
          : 'it was not recorded, or its recording has been removed';
    return new NotFound({ message: `This session has no recording: ${why}` });
  };

  const serve = async (id: string, reply: FastifyReply) => {
    const file = app.recordings.fileOf(id);
    if (!file) throw await noRecording(id);
    // A session's recording may still be growing: revalidate rather than cache. Its bytes come from a
    // process the session's user could tamper with: never sniffed, never a document of our origin.
    reply
      .header('cache-control', 'private, no-cache')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'");
    return reply.sendFile(RECORDING_FILE, path.dirname(file), {
      acceptRanges: true,
      cacheControl: false,
      dotfiles: 'deny',
    });
  };

  addRoute(app, ops.retrieveSessionReplay, ({ params }, _req, reply) => serve(params.id, reply));
  addRoute(app, ops.sessionRecording, ({ params }, _req, reply) => serve(params.id, reply));
}
