import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingFileOf } from '../server/artifacts/recorder.ts';
import { ScreencastRecording } from '../server/artifacts/screencastRecording.ts';
import { startServer, type TestServer } from './helpers/server.ts';
import { CdpPage, openViewSession, waitForAsync, type ViewSession } from './helpers/viewSession.ts';

/**
 * A session with no display of its own (a context session) is recorded from its pages' screencast,
 * never from the shared display (server/artifacts/screencastRecording.ts). Run here on an ordinary
 * session's hub: the file is a finished H.264 MP4 of what its page showed, and it keeps its time
 * while the page is still (a still page sends no frames).
 */

let server: TestServer;
let session: ViewSession;
let cdp: CdpPage;
let recording: ScreencastRecording | undefined;

beforeAll(async () => {
  server = await startServer();
  session = await openViewSession(server);
  cdp = await CdpPage.attach(session.connectUrl);
});

afterAll(async () => {
  await recording?.stop(); // a failed test's ffmpeg too
  cdp?.close();
  await server?.close();
});

const solid = (hex: string) => `data:text/html,<body style="margin:0;height:100vh;background:%23${hex}">`;

async function show(hex: string): Promise<void> {
  await cdp.call('Page.navigate', { url: solid(hex) });
  await waitForAsync(`page ${hex}`, async () =>
    (await cdp.evaluate('getComputedStyle(document.body).backgroundColor')) !== 'rgba(0, 0, 0, 0)' ? true : undefined,
  );
}

function probe(file: string) {
  const out = execFileSync('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-show_entries',
    'format=duration:stream=codec_name,pix_fmt,width,height,nb_read_frames',
    '-of',
    'json',
    file,
  ]);
  const p = JSON.parse(out.toString()) as {
    format: { duration: string };
    streams: { codec_name: string; pix_fmt: string; width: number; height: number; nb_read_frames: string }[];
  };
  return { duration: Number(p.format.duration), ...p.streams[0]! };
}

/** The RGB of the middle of the video's last frame. */
function lastFrameCentre(file: string): number[] {
  const rgb = execFileSync('ffmpeg', [
    ...['-v', 'error', '-sseof', '-0.3', '-i', file, '-vf', 'crop=2:2:iw/2:ih/2', '-frames:v', '1'],
    ...['-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
  ]);
  return [...rgb.subarray(0, 3)];
}

describe('a screencast recording', () => {
  it("records the session's own page to a finished H.264 MP4 that keeps its time on a still page", async () => {
    await show('2255cc');
    const file = recordingFileOf(server.dataDir, session.id);
    const problems: string[] = [];
    recording = new ScreencastRecording(server.app.sessions.get(session.id)!.hub, {
      dataDir: server.dataDir,
      sessionId: session.id,
      onProblem: (m) => problems.push(m),
    });
    await waitForAsync('the recording begun', () =>
      fs.existsSync(file) && fs.statSync(file).size > 0 ? true : undefined,
    );
    await show('22aa44');
    // Still for two seconds: no frame comes, the last one is handed in again.
    const stillFrom = Date.now();
    await waitForAsync('two still seconds', () => (Date.now() - stillFrom >= 2000 ? true : undefined));
    await recording.stop();

    expect(problems).toEqual([]);
    const p = probe(file);
    expect(p.codec_name).toBe('h264');
    expect(p.pix_fmt).toBe('yuv420p');
    expect(p.width % 2).toBe(0);
    expect(p.width).toBeLessThanOrEqual(1280);
    expect(Number(p.nb_read_frames)).toBeGreaterThan(2);
    expect(p.duration).toBeGreaterThanOrEqual(1.5);
    const [r, g, b] = lastFrameCentre(file);
    expect(Math.abs(r! - 0x22) + Math.abs(g! - 0xaa) + Math.abs(b! - 0x44)).toBeLessThan(40);
  });
});
