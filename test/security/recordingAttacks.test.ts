import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/secrets/signedTokens.ts';
import { serviceProcesses } from '../helpers/processes.ts';
import { postJson, startServer, type TestServer } from '../helpers/server.ts';
import { waitForAsync } from '../helpers/wait.ts';
import { listenersOf, uidOf } from './sockets.ts';

// The recording routes tried as a stranger holding one session's URLs would: recording_url's token
// opens that session's recording and nothing else, the key-only route takes no token, and no
// spelling of the id reaches a file outside the session's own recording.
let server: TestServer;
let mine: string;
let other: string;
beforeAll(async () => {
  server = await startServer({ RECORD_SESSIONS: 'all' });
  const create = async (name: string) => {
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: name });
    expect(res.status).toBe(200);
    return ((await res.json()) as { session_id: string }).session_id;
  };
  mine = await create('mine');
  other = await create('other');
  // Ended once both recordings have begun (ffmpeg, niced, starts late on a loaded host).
  await waitForAsync('the recordings to begin', () =>
    server.app.recordings.fileOf(mine) && server.app.recordings.fileOf(other) ? true : undefined,
  );
  for (const id of [mine, other]) await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
  expect(server.app.recordings.fileOf(mine)).not.toBeNull();
  expect(server.app.recordings.fileOf(other)).not.toBeNull();
});
afterAll(() => server?.close());

const key = () => server.app.urlSigningKey;
const recording = (id: string, token: string, init?: RequestInit) =>
  fetch(`${server.url}/api/session/${id}/recording?token=${encodeURIComponent(token)}`, init);

describe("recording_url tokens open one session's recording, until they expire", () => {
  it('the recording token of a session opens its recording, ranges and HEAD included, without a key', async () => {
    const token = signToken(key(), 'recording', mine, 60);
    expect((await recording(mine, token)).status).toBe(200);
    expect((await recording(mine, token, { headers: { range: 'bytes=0-3' } })).status).toBe(206);
    expect((await recording(mine, token, { method: 'HEAD' })).status).toBe(200);
  });

  it("refuses it for another session, and another session's token for this one", async () => {
    expect((await recording(other, signToken(key(), 'recording', mine, 60))).status).toBe(401);
    expect((await recording(mine, signToken(key(), 'recording', other, 60))).status).toBe(401);
  });

  it('refuses tokens of every other scope for the same session', async () => {
    for (const scope of ['events', 'screenshot', 'files'] as const) {
      expect((await recording(mine, signToken(key(), scope, mine, 60))).status, scope).toBe(401);
    }
  });

  it("a recording token opens none of the session's other signed routes", async () => {
    const token = encodeURIComponent(signToken(key(), 'recording', mine, 60));
    for (const p of [
      `/api/session/${mine}/events?token=${token}`,
      `/api/session/${mine}/stream?token=${token}`,
      `/api/session/${mine}/screenshot?token=${token}`,
      `/api/session/${mine}/files/x.txt?token=${token}`,
    ]) {
      expect((await fetch(server.url + p)).status, p).toBe(401);
    }
  });

  it('refuses expired, tampered, truncated and foreign-key tokens', async () => {
    const good = signToken(key(), 'recording', mine, 60);
    const [payload, mac] = good.split('.') as [string, string];
    const forged = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    forged.s = other;
    const cases = {
      expired: signToken(key(), 'recording', mine, 60, Date.now() - 3_600_000),
      'payload swapped to another session': `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${mac}`,
      'mac flipped': `${payload}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      'mac missing': `${payload}.`,
      'extra part': `${good}.x`,
      'another key': signToken(randomBytes(32), 'recording', mine, 60),
      'far too long': 'a'.repeat(5000),
    };
    for (const [what, token] of Object.entries(cases)) expect((await recording(mine, token)).status, what).toBe(401);
  });

  it('the key-only route takes no token and no key in the query string', async () => {
    const token = encodeURIComponent(signToken(key(), 'recording', mine, 60));
    expect((await fetch(`${server.url}/api/retrieve_session_replay/${mine}?token=${token}`)).status).toBe(401);
    expect(
      (
        await fetch(
          `${server.url}/api/retrieve_session_replay/${mine}?api_key=${server.apiKey}&x-api-key=${server.apiKey}`,
        )
      ).status,
    ).toBe(401);
    expect((await fetch(`${server.url}/api/session/${mine}/recording`, { method: 'HEAD' })).status).toBe(401);
  });
});

describe('the recorder', () => {
  it("runs as the session's user, listens nowhere and holds no file of the service's", async () => {
    const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'recorder' });
    const { session_id: id } = (await res.json()) as { session_id: string };
    try {
      // Spawned as the session went live, through `nice` (recorder.ts): ffmpeg once it has written.
      await waitForAsync('the recording to begin', () => server.app.recordings.fileOf(id) ?? undefined);
      const tree = serviceProcesses(server.dataDir).filter((p) => p.tree === id);
      const ffmpeg = tree.find((p) => p.name === 'ffmpeg')!;
      const xvfb = tree.find((p) => p.name === 'Xvfb')!;
      expect(ffmpeg).toBeDefined();
      expect(uidOf(ffmpeg.pid)).toBe(uidOf(xvfb.pid));
      if (process.getuid!() === 0) expect(uidOf(ffmpeg.pid)).not.toBe(0);
      expect(listenersOf([ffmpeg.pid])).toEqual([]);
      const open = fs
        .readdirSync(`/proc/${ffmpeg.pid}/fd`)
        .map((fd) => fs.readlinkSync(`/proc/${ffmpeg.pid}/fd/${fd}`));
      expect(open.filter((target) => target.startsWith(server.dataDir))).toEqual([]);
    } finally {
      await server.api(`/api/sessions/${id}`, { method: 'DELETE' });
    }
  });
});

describe('no spelling of the id reaches another file', () => {
  it('ids that are not a session UUID are refused before any file is looked at', async () => {
    for (const id of [
      '..%2F..%2Fsecret-key',
      '..%2Fapi-key',
      `${mine}%2F..%2F..%2Fsecret-key`,
      '%2e%2e',
      `${mine}%00`,
      'recording.mp4',
    ]) {
      const res = await server.api(`/api/retrieve_session_replay/${id}`);
      expect([404, 422], id).toContain(res.status);
      expect(res.headers.get('content-type'), id).toContain('application/json');
    }
  });

  it('an upper-case spelling of the id is not another way in', async () => {
    const upper = mine.toUpperCase();
    expect((await recording(upper, signToken(key(), 'recording', mine, 60))).status).toBe(401);
    const res = await server.api(`/api/retrieve_session_replay/${upper}`);
    expect(res.status).toBe(404);
  });

  it('malformed or huge Range headers never fail the server', async () => {
    for (const range of [
      'bytes=abc',
      'bytes=--1',
      'bytes=99999999999999999999999-',
      'bytes=0-1,2-3,4-5',
      'items=0-1',
      `bytes=${'0-1,'.repeat(2000)}0-1`,
      'bytes=5-1',
    ]) {
      const res = await server.api(`/api/retrieve_session_replay/${mine}`, { headers: { range } });
      expect([200, 206, 416], range).toContain(res.status);
      await res.arrayBuffer();
    }
  });
});
