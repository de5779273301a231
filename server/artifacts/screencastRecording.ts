import type { SessionCdp } from '../sessions/cdp/hub.ts';
import { jpegSize } from '../sessions/display/jpegSize.ts';
import { watchScreencast } from '../sessions/display/screencast.ts';
import { Recording } from './recorder.ts';

/** A screen recording as SessionRecordings holds it: from a display, or from a screencast. */
export interface SessionRecording {
  hurry(): void;
  stop(): Promise<void>;
}

/**
 * The screencast is asked for frames this size at most (the live view's 1920x1080 would cost a
 * recording more to encode than the picture gains); the video is the first frame's size.
 */
const MAX_FRAME = { width: 1280, height: 720 } as const;

/**
 * A still page sends no frames: the last one is handed in again this often, so the video keeps its
 * time (ffmpeg stamps each frame with its arrival and repeats it up to the next one).
 */
const REPEAT_MS = 500;

/**
 * A session's recording from the screencast of its own pages (the tab on screen, as its live view
 * shows it), for a session with no display of its own: a context session's display is shared, and
 * grabbing it would record other sessions' windows. ffmpeg starts at the first frame.
 */
export class ScreencastRecording implements SessionRecording {
  private recording: Recording | undefined;
  private last: Buffer | undefined;
  private lastAt = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly stream: ReturnType<typeof watchScreencast>;

  constructor(
    hub: SessionCdp,
    private readonly opts: { dataDir: string; sessionId: string; onProblem?: (message: string) => void },
  ) {
    this.stream = watchScreencast(hub, {
      quality: 70,
      maxWidth: MAX_FRAME.width,
      maxHeight: MAX_FRAME.height,
      onFrame: (frame) => this.frame(frame.subarray(8)),
      onError: () => {}, // a tab closing as it is attached: the next tab's frames go on
    });
    this.timer = setInterval(() => {
      if (this.last && Date.now() - this.lastAt >= REPEAT_MS) this.recording?.writeFrame(this.last);
    }, REPEAT_MS);
    this.timer.unref();
  }

  private frame(jpeg: Buffer): void {
    if (!this.recording) {
      const size = jpegSize(jpeg);
      if (!size) return;
      // x264 with yuv420p needs even sides.
      const even = { width: size.width & ~1, height: size.height & ~1 };
      if (!even.width || !even.height) return;
      this.recording = Recording.startFromFrames({ ...this.opts, size: even });
    }
    this.last = jpeg;
    this.lastAt = Date.now();
    this.recording.writeFrame(jpeg);
  }

  hurry(): void {
    this.recording?.hurry();
  }

  /** Stop watching and let ffmpeg finish its file (none when no frame came). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stream.end();
    await this.recording?.stop();
  }
}
