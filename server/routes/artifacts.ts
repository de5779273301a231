import fs from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { artifactOperations as ops } from '../../contract/artifacts.ts';
import { runControlOperations } from '../../contract/runControl.ts';
import { zipOf } from '../artifacts/zip.ts';
import { Conflict, NotFound } from '../domain/errors.ts';
import { addRoute } from '../http/route.ts';

/** RFC 6266: an ASCII fallback name and the exact one in UTF-8 (RFC 8187). */
function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * What the page downloaded is the page's content, served from our origin: never rendered (always
 * octet-stream, an attachment, nosniff, and a sandbox CSP should a browser render it anyway).
 */
function asAttachment(reply: FastifyReply, filename: string, type = 'application/octet-stream'): FastifyReply {
  return reply
    .type(type)
    .header('content-disposition', attachment(filename))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cache-control', 'private, no-cache');
}

/** One kept file, opened without following a link (the folder is ours; this is only belt and braces). */
function sendFile(reply: FastifyReply, file: string, filename: string, type?: string): FastifyReply {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  const size = fs.fstatSync(fd).size;
  return asAttachment(reply, filename, type)
    .header('content-length', String(size))
    .send(fs.createReadStream('', { fd }));
}

const noFile = (sessionId: string, filename: string) =>
  new NotFound({
    message: `Session ${sessionId} has no downloaded file named ${JSON.stringify(filename)}: file_metadata in its status lists the names`,
  });

/** GET /download_session_files (Simplex's clients): a zip of every file the session kept, or the one named. */
async function sendSessionFiles(
  app: FastifyInstance,
  reply: FastifyReply,
  sessionId: string,
  filename: string | undefined,
): Promise<FastifyReply> {
  await app.sessionRecords.assertExists(sessionId);
  if (filename !== undefined) {
    const file = app.artifacts.fileOf(sessionId, filename);
    if (!file) throw noFile(sessionId, filename);
    return sendFile(reply, file, filename);
  }
  const files = app.artifacts.files(sessionId);
  if (!files.length) {
    throw new NotFound({
      message: `Session ${sessionId} has no downloaded files (none were downloaded, or retention has removed them)`,
    });
  }
  const entries = files.flatMap((f) => {
    const path = app.artifacts.fileOf(sessionId, f.filename);
    return path ? [{ path, name: f.filename, mtime: new Date(f.download_timestamp) }] : [];
  });
  return asAttachment(reply, `session-${sessionId}-files.zip`, 'application/zip').send(zipOf(entries));
}

/**
 * A session's files by signed URL, its storage state, and removing its artifacts (contract/artifacts.ts);
 * and Simplex's download_session_files (contract/runControl.ts).
 */
export async function artifactRoutes(app: FastifyInstance): Promise<void> {
  const { sessionRecords } = app;

  addRoute(app, ops.sessionFile, async ({ params }, _req, reply) => {
    await sessionRecords.assertExists(params.id);
    const file = app.artifacts.fileOf(params.id, params.filename);
    if (!file) throw noFile(params.id, params.filename);
    return sendFile(reply, file, params.filename);
  });

  addRoute(app, ops.getSessionStore, async ({ params }) => {
    const session = await sessionRecords.get(params.id);
    const state = app.artifacts.storageState(params.id);
    if (!state) {
      const why =
        session.state === 'ended'
          ? 'none was kept (the session never went live, or retention has removed it)'
          : 'it is written when the session ends';
      throw new NotFound({ message: `Session ${params.id} has no storage state: ${why}` });
    }
    return state;
  });

  addRoute(app, ops.deleteSessionArtifacts, async ({ params }, _req, reply) => {
    await sessionRecords.assertExists(params.id);
    if (await app.artifacts.isLive(params.id)) {
      throw new Conflict(
        'The session is live and still writing its artifacts: end it first (DELETE /api/sessions/{id})',
      );
    }
    await app.artifacts.remove(params.id);
    return reply.status(204).send();
  });

  addRoute(app, ops.sessionHar, async ({ params }, _req, reply) => {
    const session = await sessionRecords.get(params.id);
    const file = app.networks.harPath(params.id);
    if (file) return sendFile(reply, file, `session-${params.id}.har`, 'application/json');
    // Live (here: a session live on another node was passed to it): what it has recorded so far.
    const snapshot = await app.networks.snapshot(params.id);
    if (snapshot)
      return asAttachment(reply, `session-${params.id}.har`, 'application/json').send(JSON.stringify(snapshot));
    const why =
      session.state === 'ended'
        ? 'none was kept (the session never went live, or retention has removed it)'
        : 'it has recorded nothing yet (it is starting, or ending and writing its HAR): ask again in a moment';
    throw new NotFound({ message: `Session ${params.id} has no HAR: ${why}` });
  });

  addRoute(app, runControlOperations.downloadSessionFiles, ({ query }, _req, reply) =>
    sendSessionFiles(app, reply, query.session_id, query.filename),
  );
}
