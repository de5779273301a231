import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { SessionStatus } from '../contract/runControl.ts';
import { recordingFileOf } from '../server/artifacts/recorder.ts';
import type { BusEvents } from '../server/events/bus.ts';
import { browserProcess, serviceProcesses, waitForNoServiceProcesses } from './helpers/processes.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { startChildServer, type ChildServer } from './helpers/childServer.ts';
import { waitForAsync } from './helpers/wait.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

// Screen recordings (issue 11): each recorded session's display to fragmented MP4, finished however
// the session ends, playable up to the cut when the server dies, served with byte ranges.

interface Probe {
  format: { duration: string; size: string };
  streams: { codec_name: string; pix_fmt: string; width: number; height: number; nb_read_frames?: string }[];
}
/** ffprobe's view of a file, every frame decoded (-count_frames): throws when it is not a playable video. */
function probe(file: string): { duration: number; codec: string; pixFmt: string; width: number; frames: number } {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'format=duration,size:stream=codec_name,pix_fmt,width,height,nb_read_frames',
    '-of',
    'json',
    file,
  ]);
  const p = JSON.parse(out.toString()) as Probe;
  const s = p.streams[0]!;
  return {
    duration: Number(p.format.duration),
    codec: s.codec_name,
    pixFmt: s.pix_fmt,
    width: s.width,
    frames: Number(s.nb_read_frames),
  };
}

/** Top-level MP4 boxes; a finished fragmented file ends with ffmpeg's index (`mfra`), a cut one without. */
function boxes(file: string): string[] {
  const d = fs.readFileSync(file);
  const out: string[] = [];
  for (let at = 0; at + 8 <= d.length; at += d.readUInt32BE(at)) {
    out.push(d.toString('latin1', at + 4, at + 8));
    if (d.readUInt32BE(at) < 8) break;
  }
  return out;
}
const finished = (file: string) => boxes(file).at(-1) === 'mfra';

/**
 * ffprobe's view of what a growing recording holds whole on disk now (its header and each complete
 * fragment, copied to a file of their own; the recording plays at any moment): undefined before its
 * first fragment. Frames it has written stay in the file however the session ends, so the finished
 * file holds at least these: a lower bound that follows from order, not from how fast the host encodes.
 */
function probeWritten(file: string): ReturnType<typeof probe> | undefined {
  let d: Buffer;
  try {
    d = fs.readFileSync(file);
  } catch {
    return undefined; // not begun
  }
  let end = 0;
  for (let at = 0; at + 8 <= d.length;) {
    const size = d.readUInt32BE(at);
    if (size < 8 || at + size > d.length) break;
    if (d.toString('latin1', at + 4, at + 8) === 'mdat') end = at + size;
    at += size;
  }
  if (!end) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-rec-part-'));
  try {
    fs.writeFileSync(path.join(dir, 'part.mp4'), d.subarray(0, end));
    return probe(path.join(dir, 'part.mp4'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Wait until the recording holds more than `frames` frames whole on disk; what it holds then. */
const framesWritten = (file: string, frames: number) =>
  waitForAsync(`more than ${frames} frames of the recording on disk`, () => {
    const w = probeWritten(file);
    return w && w.frames > frames ? w : undefined;
  });

const ffmpegs = (dataDir: string) => serviceProcesses(dataDir).filter((p) => p.name === 'ffmpeg');

/**
 * The recorder is spawned as the session goes live, but as `nice -n 10 ffmpeg` (recorder.ts): the
 * process is `nice` until that execs ffmpeg (and has no environment, so no marker, for a moment
 * after), which on a loaded host takes a while at niceness 10. Its first bytes in the file say
 * ffmpeg runs.
 */
const recordingBegun = (s: TestServer, id: string) =>
  waitForAsync('the recording to begin', () => s.app.recordings.fileOf(id) ?? undefined);

/** `sentAt`: before the request (the recorder starts as the session goes live, before the answer). */
async function create(s: TestServer) {
  const sentAt = Date.now();
  const res = await postJson(s, '/api/create_workflow_session', { workflow_name: 'recorded' });
  expect(res.status).toBe(200);
  return { ...CreateWorkflowSessionResponse.parse(await res.json()), sentAt };
}

async function statusOf(s: TestServer, id: string) {
  return SessionStatus.parse(await (await s.api(`/api/session/${id}/status`)).json());
}

function nextEnded(s: TestServer, id: string): Promise<BusEvents['session.ended'] & { at: number }> {
  return new Promise((resolve) => {
    const off = s.app.bus.on('session.ended', (e) => {
      if (e.session_id !== id) return;
      off();
      resolve({ ...e, at: Date.now() });
    });
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ RECORD_SESSIONS: 'all' });
});
afterAll(() => closeLeavingNothing(server));

describe('a recorded session', () => {
  let stopped: { id: string; file: string; duration: number };

  it('stopped: its file is an H.264 MP4 as long as the session, and no ffmpeg is left', async () => {
    const s = await create(server);
    await recordingBegun(server, s.session_id);
    expect(ffmpegs(server.dataDir)).toHaveLength(1);
    const file = recordingFileOf(server.dataDir, s.session_id);
    // More than one picture to encode: ended once more than 20 frames are on disk (however long a
    // niced ffmpeg on a loaded host takes to write them).
    const written = await framesWritten(file, 20);
    const res = await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    // The most the recording can span: from before the create to the end.
    const span = (Date.now() - s.sentAt) / 1000;
    // Gone when DELETE answers, ffmpeg included.
    expect(serviceProcesses(server.dataDir)).toEqual([]);
    const p = probe(file);
    expect(p).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 1280 });
    // As long as the session: never longer (half a second for the last frame's length), and holding
    // at least all it had written before the end.
    expect(p.duration).toBeLessThan(span + 0.5);
    expect(p.duration).toBeGreaterThanOrEqual(written.duration);
    expect(p.frames).toBeGreaterThanOrEqual(written.frames);
    expect(boxes(file).slice(0, 3)).toEqual(['ftyp', 'moov', 'moof']);
    expect(finished(file)).toBe(true);
    // The service's file, in DATA_DIR: not the session user's.
    const st = fs.statSync(file);
    expect(st.uid).toBe(process.getuid!());
    expect(st.mode & 0o077).toBe(0);
    stopped = { id: s.session_id, file, duration: p.duration };
  });

  it('ended the moment it answers, before ffmpeg has a frame: the recording is kept and plays', async () => {
    const s = await create(server);
    // No wait for the recording to begin: a short run ends like this, and its recording was dropped.
    const res = await server.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(serviceProcesses(server.dataDir)).toEqual([]);
    const file = server.app.recordings.fileOf(s.session_id);
    expect(file).toBe(recordingFileOf(server.dataDir, s.session_id));
    const p = probe(file!);
    expect(p).toMatchObject({ codec: 'h264', width: 1280 });
    expect(p.frames).toBeGreaterThanOrEqual(1);
    expect(boxes(file!).slice(0, 3)).toEqual(['ftyp', 'moov', 'moof']);
    expect(finished(file!)).toBe(true);
  });

  it('whose Chromium is SIGKILLed (crashed): the file plays and is as long as the session', async () => {
    const s = await create(server);
    // Crashed once a fragment of the recording is whole on disk.
    const written = await framesWritten(recordingFileOf(server.dataDir, s.session_id), 0);
    const ended = nextEnded(server, s.session_id);
    process.kill(browserProcess(server.dataDir, s.session_id).pid, 'SIGKILL');
    const e = await ended;
    expect(e.reason).toBe('crashed');
    expect(await waitForNoServiceProcesses(server.dataDir)).toEqual([]);
    const goneAt = Date.now();
    const p = probe(recordingFileOf(server.dataDir, s.session_id));
    // A crashed session's end spans from the crash being noticed to its last process being reaped
    // (ffmpeg is one of them, stopped by that sweep). What the encoder had not yet written is lost
    // with it (the open fragment, and on a loaded machine the frames it was behind by), never what
    // was on disk before the crash; and nothing is from after the end (from before the create on).
    expect(p.duration).toBeGreaterThanOrEqual(written.duration);
    expect(p.duration).toBeLessThan((goneAt - s.sentAt) / 1000 + 1);
    // Playable: fragments with frames up front. Its closing index (mfra) is written when ffmpeg
    // finishes within the sweep's grace; on a loaded host it can be cut (seen once in four full
    // runs), and the fragments before it still play, so the index is not asserted here.
    expect(boxes(recordingFileOf(server.dataDir, s.session_id)).slice(0, 3)).toEqual(['ftyp', 'moov', 'moof']);
    expect(p.frames).toBeGreaterThanOrEqual(written.frames);
    expect((await statusOf(server, s.session_id)).recording_url).toMatch(
      /\/api\/session\/[0-9a-f-]+\/recording\?token=/,
    );
  });

  it('is served whole, and by byte ranges (206, Content-Range), 416 past its end', async () => {
    const bytes = fs.readFileSync(stopped.file);
    const whole = await server.api(`/api/retrieve_session_replay/${stopped.id}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, bytes.length - 1],
      ['bytes=-500', bytes.length - 500, bytes.length - 1],
    ];
    for (const [range, first, last] of cases) {
      const res = await server.api(`/api/retrieve_session_replay/${stopped.id}`, { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${first}-${last}/${bytes.length}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(first, last + 1)), range).toBe(true);
    }
    const past = await server.api(`/api/retrieve_session_replay/${stopped.id}`, {
      headers: { range: `bytes=${bytes.length + 10}-` },
    });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect(await past.json()).toMatchObject({ error: 'range_not_satisfiable' });
  });

  it('recording_url opens it without a key (ranges too) and a video element plays and seeks it', async () => {
    const url = (await statusOf(server, stopped.id)).recording_url!;
    expect(url).toContain(`/api/session/${stopped.id}/recording?token=`);
    const res = await fetch(url, { headers: { range: 'bytes=0-7' } });
    expect(res.status).toBe(206);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');

    const viewer = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    try {
      const page = await viewer.newPage();
      await page.goto(`${server.url}/api/healthz`);
      const seen = await page.evaluate(async (src) => {
        const v = document.createElement('video');
        v.muted = true;
        v.src = src;
        document.body.append(v);
        await new Promise((resolve, reject) => {
          v.onloadedmetadata = resolve;
          v.onerror = () => reject(new Error(`video error ${v.error?.code}: ${v.error?.message}`));
        });
        const duration = v.duration;
        v.currentTime = duration / 2;
        await new Promise((resolve) => (v.onseeked = resolve));
        return { duration, at: v.currentTime };
      }, url);
      expect(Math.abs(seen.duration - stopped.duration)).toBeLessThan(0.5);
      expect(seen.at).toBeCloseTo(seen.duration / 2, 0);
    } finally {
      await viewer.close();
    }
  });

  it('without a key or a token: 401', async () => {
    expect((await fetch(`${server.url}/api/retrieve_session_replay/${stopped.id}`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/session/${stopped.id}/recording`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/session/${stopped.id}/recording?token=nope`)).status).toBe(401);
  });

  it('unknown session: 404', async () => {
    const res = await server.api('/api/retrieve_session_replay/00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ message: 'Session not found' });
  });
});

describe('every way a session ends', () => {
  it('timed out, and still live when the server closes: finished files as long as the sessions, no ffmpeg left', async () => {
    const own = await startServer({ RECORD_SESSIONS: 'all' });
    try {
      const workflow = await own.app.store.workflows.findOrCreateByName('ends');
      const shortSentAt = Date.now();
      const shortLived = await own.app.sessions.create({ workflowId: workflow.id, timeoutSeconds: 2, proxies: false });
      const timedOut = nextEnded(own, shortLived.session.id);
      const openSentAt = Date.now();
      const open = await own.app.sessions.create({ workflowId: workflow.id, timeoutSeconds: 60, proxies: false });
      const shortEnd = await timedOut;
      expect(shortEnd.reason).toBe('timed_out');
      await recordingBegun(own, open.session.id);
      expect(ffmpegs(own.dataDir).map((p) => p.tree)).toEqual([open.session.id]);
      // Plays, and is no longer than the session (from before its create to its end). How much of its
      // last moments a niced encoder had written when it timed out depends on the host's load.
      const short = probe(recordingFileOf(own.dataDir, shortLived.session.id));
      expect(short.frames).toBeGreaterThanOrEqual(1);
      expect(short.duration).toBeLessThan((shortEnd.at - shortSentAt) / 1000 + 0.5);
      expect(finished(recordingFileOf(own.dataDir, shortLived.session.id))).toBe(true);
      // Closed once a fragment of the open one is whole on disk: the file keeps at least that.
      const written = await framesWritten(recordingFileOf(own.dataDir, open.session.id), 0);
      await own.close();
      const span = (Date.now() - openSentAt) / 1000;
      expect(serviceProcesses(own.dataDir)).toEqual([]);
      const p = probe(recordingFileOf(own.dataDir, open.session.id));
      expect(p.duration).toBeGreaterThanOrEqual(written.duration);
      expect(p.duration).toBeLessThan(span + 0.5);
      expect(finished(recordingFileOf(own.dataDir, open.session.id))).toBe(true);
    } finally {
      await own.close();
      fs.rmSync(own.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});

describe('RECORD_SESSIONS', () => {
  it("runs: a workflow run's session is recorded to its completion, a plain session is not, and the 404 says why", async () => {
    const runsOnly = await startServer({ RECORD_SESSIONS: 'runs' });
    try {
      const plain = await create(runsOnly);
      expect(ffmpegs(runsOnly.dataDir)).toEqual([]);
      // A run that lasts a moment: its page shows #late after 1.5 s.
      const flow = {
        title: 'late',
        steps: [
          {
            type: 'navigate',
            url: 'data:text/html,<script>setTimeout(()=>document.body.innerHTML="<p id=late>late</p>",1500)</script>',
          },
          // The element comes 1.5 s after the page: the wait has a loaded host's time for it.
          { type: 'waitForElement', selectors: [['#late']], timeout: 30_000 },
        ],
      };
      const created = await postJson(runsOnly, '/api/workflows', { name: 'late', flow });
      const { id: workflowId } = (await created.json()) as { id: string };
      const form = new FormData();
      form.append('workflow_id', workflowId);
      const started = await runsOnly.api('/api/run_workflow', { method: 'POST', body: form });
      expect(started.status).toBe(200);
      const { session_id: runSession } = (await started.json()) as { session_id: string };
      await recordingBegun(runsOnly, runSession);
      expect(ffmpegs(runsOnly.dataDir).map((p) => p.tree)).toEqual([runSession]);
      await waitForAsync(
        'the run to complete',
        async () => ((await statusOf(runsOnly, runSession)).in_progress ? undefined : true),
        30_000,
      );
      await waitForAsync('its recorder to finish', () => (ffmpegs(runsOnly.dataDir).length ? undefined : true));
      expect((await statusOf(runsOnly, runSession)).success).toBe(true);
      // Plays (how much of the run's last moment a niced encoder had grabbed depends on the host's load).
      expect(probe(recordingFileOf(runsOnly.dataDir, runSession)).frames).toBeGreaterThanOrEqual(1);
      expect((await statusOf(runsOnly, runSession)).recording_url).not.toBeNull();

      await runsOnly.api(`/api/sessions/${plain.session_id}`, { method: 'DELETE' });
      const res = await runsOnly.api(`/api/retrieve_session_replay/${plain.session_id}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toContain('RECORD_SESSIONS=runs');
      expect((await statusOf(runsOnly, plain.session_id)).recording_url).toBeNull();
    } finally {
      await runsOnly.close();
      fs.rmSync(runsOnly.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });

  it('off: nothing is recorded, and the 404 says why', async () => {
    const off = await startServer({ RECORD_SESSIONS: 'off' });
    try {
      const s = await create(off);
      expect(ffmpegs(off.dataDir)).toEqual([]);
      await off.api(`/api/sessions/${s.session_id}`, { method: 'DELETE' });
      const res = await off.api(`/api/retrieve_session_replay/${s.session_id}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toContain('RECORD_SESSIONS=off');
      expect((await statusOf(off, s.session_id)).recording_url).toBeNull();
    } finally {
      await off.close();
      fs.rmSync(off.dataDir, { recursive: true, force: true, maxRetries: 3 });
    }
  });
});

describe('a server killed hard mid-session', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bd-rec-crash-'));
  const apiKey = `test_${randomBytes(16).toString('hex')}`;
  let child: ChildServer | undefined;
  let restarted: TestServer | undefined;
  afterAll(async () => {
    await child?.stop('SIGKILL');
    await restarted?.close();
    for (const p of serviceProcesses(dataDir)) process.kill(p.pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });

  it('leaves a recording playable up to the cut, and no ffmpeg once restarted', async () => {
    child = await startChildServer({ dataDir, apiKey, env: { RECORD_SESSIONS: 'all' } });
    const { url } = child;
    const sentAt = Date.now();
    const res = await fetch(`${url}/api/create_workflow_session`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ workflow_name: 'cut' }),
    });
    const { session_id: id } = CreateWorkflowSessionResponse.parse(await res.json());
    // Killed once more than 10 frames are whole on disk.
    const written = await framesWritten(recordingFileOf(dataDir, id), 10);

    await child.stop('SIGKILL');
    const cutAt = Date.now();
    const p = probe(recordingFileOf(dataDir, id));
    expect(p.codec).toBe('h264');
    // Whole fragments only (one per 2 s keyframe interval): the open one is lost at the cut, never
    // what was on disk before it; and nothing is from after the cut (from before the create on).
    expect(p.frames).toBeGreaterThanOrEqual(written.frames);
    expect(p.duration).toBeGreaterThanOrEqual(written.duration);
    expect(p.duration).toBeLessThanOrEqual((cutAt - sentAt) / 1000 + 0.5);
    // Its reader gone, ffmpeg dies at its next write; the restart's reaper would find it anyway.
    await waitForAsync('ffmpeg to die with its server', () => (ffmpegs(dataDir).length ? undefined : true));

    restarted = await startServer({ BROWSERDESK_API_KEY: apiKey }, dataDir);
    expect(await waitForNoServiceProcesses(dataDir)).toEqual([]);
    const replay = await restarted.api(`/api/retrieve_session_replay/${id}`);
    expect(replay.status).toBe(200);
    expect((await replay.arrayBuffer()).byteLength).toBe(fs.statSync(recordingFileOf(dataDir, id)).size);
  });
});
