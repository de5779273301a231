import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateWorkflowSessionResponse } from '../contract/sessions.ts';
import { postJson, startServer, type TestServer } from './helpers/server.ts';
import { waitForAsync } from './helpers/wait.ts';
import { closeLeavingNothing } from './helpers/teardown.ts';

/**
 * Kiosk means no browser UI, in the recording too (issue 38): Chromium's "To exit full screen,
 * press and hold Esc" toast, dark grey at the top middle of the screen, showed in kiosk runs'
 * recordings when a browser was made fullscreen after its start. Frames of the recording file
 * itself (ffmpeg) are read over the session's first seconds, when the toast would show: the top
 * band must be the page's own white (about:blank) all across. A browser-presentation session is
 * the control: its tab strip is in that band, so the check sees browser UI when there is some.
 */

const WIDTH = 1280;
const HEIGHT = 720;
/** The band the toast would cover (it sits some 20–80 px from the top, centred) and more. */
const BAND = { top: 0, bottom: 100, left: 200, right: WIDTH - 200 };

let server: TestServer;
beforeAll(async () => {
  // One browser kept warm: the pooled path is the one that made kiosk after the start.
  server = await startServer({ RECORD_SESSIONS: 'all', WARM_POOL_SIZE: '1' });
});
afterAll(() => closeLeavingNothing(server));

/** The recording's frame at `second`, as RGB bytes at WIDTH×HEIGHT. */
function frameAt(file: string, second: number): Buffer {
  return execFileSync(
    'ffmpeg',
    ['-loglevel', 'error', '-ss', String(second), '-i', file, '-frames:v', '1', '-s', `${WIDTH}x${HEIGHT}`].concat([
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ]),
    { maxBuffer: WIDTH * HEIGHT * 3 + 1024 },
  );
}

/** How many pixels of the band are not the page's white (every channel at least 235: H.264 keeps white near white). */
function notPageInBand(frame: Buffer): number {
  let n = 0;
  for (let y = BAND.top; y < BAND.bottom; y += 2)
    for (let x = BAND.left; x < BAND.right; x += 4) {
      const i = (y * WIDTH + x) * 3;
      if (frame[i]! < 235 || frame[i + 1]! < 235 || frame[i + 2]! < 235) n++;
    }
  return n;
}

/** A session in `presentation`, kept 4 s (longer than the toast shows), then ended; its recording's frames over that time. */
async function recordedFrames(body: Record<string, unknown>): Promise<Buffer[]> {
  const res = await postJson(server, '/api/create_workflow_session', { workflow_name: 'kiosk-recording', ...body });
  expect(res.status).toBe(200);
  const { session_id } = CreateWorkflowSessionResponse.parse(await res.json());
  const file = await waitForAsync(
    'the recording to begin',
    () => server.app.recordings.fileOf(session_id) ?? undefined,
  );
  await new Promise((r) => setTimeout(r, 4_000));
  await server.api(`/api/sessions/${session_id}`, { method: 'DELETE' });
  return [0.3, 1, 2, 3].map((s) => frameAt(file, s));
}

describe('a kiosk recording', () => {
  it('shows no browser UI in its first seconds, from the warm pool and started cold', async () => {
    await waitForAsync('a warm browser', () => (server.app.sessions.warm > 0 ? true : undefined), 60_000);
    const pooled = await recordedFrames({ presentation: 'kiosk' });
    expect(pooled.map(notPageInBand)).toEqual([0, 0, 0, 0]);
    // A user agent of its own starts a browser of its own (never the pool's).
    const cold = await recordedFrames({ presentation: 'kiosk', user_agent: 'Mozilla/5.0 kiosk-test' });
    expect(cold.map(notPageInBand)).toEqual([0, 0, 0, 0]);
  });

  it('control: a browser-presentation recording has its tab strip in that band', async () => {
    const frames = await recordedFrames({ presentation: 'browser' });
    for (const f of frames) expect(notPageInBand(f)).toBeGreaterThan(100);
  });
});
