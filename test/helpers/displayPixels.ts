import { execFileSync } from 'node:child_process';
import { SCREEN } from '../../server/sessions/display/display.ts';
import type { TestServer } from './server.ts';

export interface SessionDisplay {
  display: string;
  xauthority: string;
}

/** Each session's X display as it goes live, by session id (for tests that read the screen itself). */
export function recordDisplays(server: TestServer): Map<string, SessionDisplay> {
  const displays = new Map<string, SessionDisplay>();
  server.app.lifecycle.subscribe({
    name: 'test: displays',
    live: (s, display) => void (display && displays.set(s.id, display)),
  });
  return displays;
}

/** One frame of a display, as RGB bytes (ffmpeg's x11grab, as the recorder reads it): what a person sees, browser UI included. */
export function grabDisplay(d: SessionDisplay | undefined): Buffer {
  if (!d) throw new Error('no display recorded for the session');
  return execFileSync(
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-f',
      'x11grab',
      '-video_size',
      `${SCREEN.width}x${SCREEN.height}`,
      '-i',
      d.display,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { env: { ...process.env, DISPLAY: d.display, XAUTHORITY: d.xauthority }, maxBuffer: 16 * 1024 * 1024 },
  );
}

/** True when the pixel at (x, y) of a grabbed frame is a page's pure red. */
export function isRed(frame: Buffer, x: number, y: number): boolean {
  const i = (y * SCREEN.width + x) * 3;
  return frame[i]! > 220 && frame[i + 1]! < 40 && frame[i + 2]! < 40;
}
