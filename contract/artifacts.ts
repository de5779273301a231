import { z } from 'zod';
import { Har } from './har.ts';
import { defineOperations } from './operation.ts';
import { SessionIdParams } from './sessionEvents.ts';
import { StorageState } from './sessions.ts';

/**
 * What a session leaves behind beyond its log and recording: the files its pages downloaded and
 * its storage state at the end. download_session_files (the zip, or one file) is in runControl.ts
 * with the other calls Simplex's clients make.
 */

export const SessionFileParams = SessionIdParams.extend({
  filename: z.string().min(1).max(1024).describe('A file name as file_metadata lists it'),
});

export const artifactOperations = defineOperations({
  sessionFile: {
    operationId: 'sessionFile',
    method: 'get',
    path: '/session/{id}/files/{filename}',
    session: 'params.id',
    summary:
      "One file the session downloaded, as an attachment; download_url in file_metadata points here with a signed token (this session's files only, a day)",
    tags: ['sessions'],
    auth: { orToken: 'files' },
    params: SessionFileParams,
    query: z.object({ token: z.string().max(1000).optional() }),
    responses: {
      200: {
        description: "The file's bytes (always application/octet-stream, as an attachment)",
        contentType: 'application/octet-stream',
        schema: z.string(),
      },
    },
    errors: [401, 404, 422],
  },
  getSessionStore: {
    operationId: 'getSessionStore',
    method: 'get',
    path: '/get_session_store/{id}',
    session: 'params.id',
    summary:
      'The cookies and localStorage a session had when it ended, as a Playwright storage state: pass its JSON as session_data to start the next session logged in',
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 200: { description: 'The storage state', schema: StorageState } },
    errors: [401, 404, 422],
  },
  deleteSessionArtifacts: {
    operationId: 'deleteSessionArtifacts',
    method: 'delete',
    path: '/sessions/{id}/artifacts',
    session: 'params.id',
    summary:
      "Remove an ended session's artifacts now (recording, downloaded files, storage state); its record and log stay",
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 204: { description: 'Removed (or there were none)' } },
    errors: [401, 404, 409, 422],
  },
  sessionHar: {
    operationId: 'sessionHar',
    method: 'get',
    path: '/sessions/{id}/har',
    session: 'params.id',
    summary:
      "The session's network record as HAR 1.2 (opens in Chrome DevTools' network panel), written when it ends: every request of its tabs and workers, text bodies cut, credentials and Authorization/Cookie values hidden. While the session is live, what it has recorded so far, its log's comment saying it is a snapshot",
    tags: ['sessions'],
    params: SessionIdParams,
    responses: { 200: { description: 'The HAR, as an attachment', schema: Har } },
    errors: [401, 404, 422],
  },
});
